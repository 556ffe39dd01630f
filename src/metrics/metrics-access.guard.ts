import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../common/errors/api-error';
import { AppConfig } from '../config/app-config';
import { cameThroughProxy, metricsVerdict } from './metrics-access';

/** Lets a scraper read `/metrics`: the bearer METRICS_TOKEN, else loopback without a proxy (contract 13.8). */
@Injectable()
export class MetricsAccessGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const verdict = metricsVerdict(this.config.METRICS_TOKEN, {
      authorization: request.headers.authorization,
      forwarded: cameThroughProxy(request.headers),
      socketAddress: request.socket.remoteAddress,
    });
    if (verdict === 'unauthorized') {
      throw ApiError.unauthorized('metrics.tokenRequired');
    }
    if (verdict === 'forbidden') {
      throw ApiError.forbidden('metrics.loopbackOnly');
    }
    return true;
  }
}

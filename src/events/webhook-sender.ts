import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Injectable } from '@nestjs/common';
import { type LocalizedText, msg } from '../common/errors/messages';
import { raceSignal, startDeadline } from '../common/timing/deadline';
import { AppConfig } from '../config/app-config';
import { hostOf, isForbiddenAddress, parseWebhookUrl } from './webhook-url';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Name resolution for webhook targets, one injectable seam: tests replace `resolve` so that no
 * real lookup happens (and no /etc/hosts edit is needed).
 */
@Injectable()
export class HostResolver {
  async resolve(host: string): Promise<ResolvedAddress[]> {
    const results = await dnsLookup(host, { all: true, verbatim: true });
    return results.map((result) => ({ address: result.address, family: result.family === 6 ? 6 : 4 }));
  }
}

/** The target may not be used; the message says why (shown to operators, never a secret). */
export class TargetRefused extends Error {
  constructor(readonly text: LocalizedText) {
    super(text.en);
  }
}

export interface SendResult {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** The first 64 KiB of the answer (Discord's 429 carries `retry_after` in it). */
  body: string;
}

const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Sends one webhook request: resolves the host once, refuses non-public addresses (unless
 * WEBHOOK_ALLOW_PRIVATE), then connects to exactly the address it checked (the socket's lookup
 * returns it; no second lookup), with the Host header and TLS SNI of the URL's name. Redirects
 * are not followed: a 3xx is an answer like any other non-2xx.
 */
@Injectable()
export class WebhookSender {
  constructor(
    private readonly config: AppConfig,
    readonly resolver: HostResolver,
  ) {}

  /**
   * The address to connect to, after the SSRF guard; TargetRefused when there is none allowed.
   * The lookup has WEBHOOK_TIMEOUT_MS (this is on the request path of `POST`/`PATCH /webhooks`): a
   * name that does not resolve in time is refused like one that does not resolve.
   */
  async target(rawUrl: string): Promise<{ url: URL; address: ResolvedAddress }> {
    const deadline = startDeadline(this.config.WEBHOOK_TIMEOUT_MS, { what: 'the webhook host lookup' });
    try {
      return await this.resolveTarget(rawUrl, deadline.signal);
    } catch (error) {
      if (deadline.signal.aborted && !(error instanceof TargetRefused)) {
        throw new TargetRefused(msg('webhooks.url.unresolvable', { host: hostOf(parseWebhookUrl(rawUrl)!) }));
      }
      throw error;
    } finally {
      deadline.dispose();
    }
  }

  /** target() under the caller's deadline: when `signal` aborts during the lookup, rejects with its reason. */
  private async resolveTarget(rawUrl: string, signal: AbortSignal): Promise<{ url: URL; address: ResolvedAddress }> {
    const url = parseWebhookUrl(rawUrl);
    if (url === undefined) {
      throw new TargetRefused(msg('webhooks.url.invalid'));
    }
    const host = hostOf(url);
    let addresses: ResolvedAddress[];
    const family = isIP(host);
    if (family !== 0) {
      addresses = [{ address: host, family: family === 6 ? 6 : 4 }];
    } else {
      try {
        // dns.lookup takes no signal: the race drops a late answer.
        addresses = await raceSignal(this.resolver.resolve(host), signal);
      } catch (error) {
        if (signal.aborted) {
          throw error;
        }
        throw new TargetRefused(msg('webhooks.url.unresolvable', { host }));
      }
    }
    if (addresses.length === 0) {
      throw new TargetRefused(msg('webhooks.url.unresolvable', { host }));
    }
    // Every address must pass: a name with one public and one private record is refused.
    if (!this.config.WEBHOOK_ALLOW_PRIVATE && addresses.some((entry) => isForbiddenAddress(entry.address))) {
      throw new TargetRefused(msg('webhooks.url.private', { host }));
    }
    return { url, address: addresses[0] };
  }

  /**
   * POSTs `body`; resolves with the answer, rejects on refusal, connection error or timeout. One
   * deadline (WEBHOOK_TIMEOUT_MS) covers the lookup and the whole request: a slow DNS server
   * cannot add its own wait on top (docs/reliability.md, "Webhooks").
   */
  async post(rawUrl: string, headers: Record<string, string>, body: string, signal?: AbortSignal): Promise<SendResult> {
    const deadline = startDeadline(this.config.WEBHOOK_TIMEOUT_MS, { signal, what: 'the webhook request' });
    try {
      const { url, address } = await this.resolveTarget(rawUrl, deadline.signal);
      return await this.send(url, address, headers, body, deadline.signal);
    } finally {
      deadline.dispose();
    }
  }

  private send(url: URL, address: ResolvedAddress, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<SendResult> {
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if ((options as { all?: boolean }).all) {
        (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, [address]);
      } else {
        callback(null, address.address, address.family);
      }
    };
    const secure = url.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    return new Promise<SendResult>((resolve, reject) => {
      // An abort surfaces as a bare AbortError; the signal's reason says which deadline ran out.
      const fail = (error: Error): void => reject(signal.aborted && signal.reason instanceof Error ? signal.reason : error);
      const request = send(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          lookup: pinned,
          agent: false,
          signal,
          ...(secure && isIP(hostOf(url)) === 0 ? { servername: hostOf(url) } : {}),
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            if (size < MAX_ANSWER_BYTES) {
              chunks.push(chunk);
              size += chunk.length;
            }
          });
          response.on('end', () => {
            resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_ANSWER_BYTES) });
          });
          response.on('error', fail);
        },
      );
      request.on('error', fail);
      request.end(body);
    });
  }
}

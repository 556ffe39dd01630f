// The framework's floor: a bare NestJS 12 + Fastify application with one GET route returning the
// same fixed ~500-byte object as the raw baseline (bench/fixed-body.js), serialised by Fastify.
// No pipes, guards, interceptors, filters or hooks; Nest's logger off. Its own process.
require('reflect-metadata');
const { Controller, Get, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const fixedBody = require('./fixed-body');

class BaselineController {
  get() {
    return fixedBody;
  }
}
// Decorators applied by hand (plain JavaScript), exactly as TypeScript's emitted code applies them.
Get()(BaselineController.prototype, 'get', Object.getOwnPropertyDescriptor(BaselineController.prototype, 'get'));
Controller()(BaselineController);

class BaselineModule {}
Module({ controllers: [BaselineController] })(BaselineModule);

async function main() {
  const app = await NestFactory.create(BaselineModule, new FastifyAdapter(), { logger: false });
  await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  process.send?.({ port: app.getHttpServer().address().port });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main();

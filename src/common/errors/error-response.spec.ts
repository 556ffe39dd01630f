import { BadRequestException, HttpException } from '@nestjs/common';
import { QueueFullError } from '../limits/bounded-semaphore';
import { ApiError } from './api-error';
import { inAnswerStyle, toErrorResponse } from './error-response';
import { msg } from './messages';

describe(toErrorResponse.name, () => {
  it('keeps an ApiError as it is', () => {
    const response = toErrorResponse(ApiError.invalidField('password', msg('validation.isLength', { field: 'password', min: 8, max: 128 })), 'v1');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      status: false,
      code: 400,
      version: 'v1',
      error: 'invalid_request',
      message: 'password must be 8 to 128 characters',
      message_ja: 'パスワードは8〜128文字で入力してください。',
      details: [{ field: 'password', message: 'password must be 8 to 128 characters', message_ja: 'パスワードは8〜128文字で入力してください。' }],
    });
  });

  it('maps HttpException statuses to the error codes', () => {
    expect(toErrorResponse(new HttpException('too big', 413), 'v').body.error).toBe('payload_too_large');
    expect(toErrorResponse(new BadRequestException('bad'), 'v').body.error).toBe('invalid_request');
  });

  it('hides the message of anything unexpected behind a plain 500', () => {
    const response = toErrorResponse(new Error('SELECT * FROM secret_table failed at /src/x.ts:10'), 'v');
    expect(response.status).toBe(500);
    expect(response.body.message).toBe('An internal error occurred.');
    expect(JSON.stringify(response.body)).not.toMatch(/SELECT|secret_table|x\.ts/);
    expect(response.isServerFault).toBe(true);
  });

  it('answers 503 when the database is unreachable', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' });
    const response = toErrorResponse(error, 'v');
    expect(response.body).toMatchObject({ code: 503, error: 'service_unavailable', message_ja: msg('database.unavailable').ja });
    expect(response.headers).toEqual({ 'Retry-After': '5' });
  });

  it('answers 503 with Retry-After when a bounded queue is full', () => {
    const response = toErrorResponse(new QueueFullError('the SQLite write queue', 500), 'v');
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ code: 503, error: 'service_unavailable', message: msg('server.busy').en, message_ja: msg('server.busy').ja });
    expect(response.headers).toEqual({ 'Retry-After': '1' });
  });

  it('turns a Fastify 415 into 400: the API has no 415', () => {
    const error = Object.assign(new Error('Unsupported Media Type'), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' });
    expect(toErrorResponse(error, 'v').status).toBe(400);
  });
});

describe(inAnswerStyle.name, () => {
  it('base-soft-not-found: a 404 becomes HTTP 200 with status, code, version and the messages; other errors keep their status', () => {
    const notFound = inAnswerStyle(toErrorResponse(ApiError.notFound('site.userNotFound'), 'v'), 'base-soft-not-found');
    expect({ status: notFound.status, body: notFound.body }).toEqual({
      status: 200,
      body: { status: false, code: 404, version: 'v', message: 'User not found.', message_ja: msg('site.userNotFound').ja },
    });
    const badRequest = inAnswerStyle(toErrorResponse(ApiError.badRequest('evidence.empty'), 'v'), 'base-soft-not-found');
    expect({ status: badRequest.status, error: (badRequest.body as { error?: string }).error }).toEqual({ status: 400, error: 'invalid_request' });
  });
});

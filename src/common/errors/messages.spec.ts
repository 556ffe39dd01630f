import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BadRequestException, ForbiddenException, HttpException, NotFoundException } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { RegisterDto } from '../../club/dto/club.dto';
import { LoginBatchDto } from '../../users/dto/game-server.dto';
import { EACH_OBJECT } from '../validation/lists';
import { constraintArgs, createValidationPipe } from '../validation/validation.pipe';
import { ApiError, ERROR_CODES, type ErrorCode } from './api-error';
import { toErrorResponse } from './error-response';
import { fieldLabels, isMessageKey, messages, msg, placeholdersOf, requestTypeLabels } from './messages';
import { TRANSFORMED_RULE } from '../validation/transforms';

const SRC = join(__dirname, '..', '..');
const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Every class the DTO files export (the inputs the validation pipe checks). */
function dtoClasses(): Array<new () => unknown> {
  return sourceFiles(SRC)
    .filter((path) => /[\\/]dto[\\/]/.test(path))
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- every DTO file, including those added later
    .flatMap((path) => Object.values(require(path) as Record<string, unknown>))
    .filter((value): value is new () => unknown => typeof value === 'function' && /^class\s/.test(Function.prototype.toString.call(value)));
}

describe('message catalogue', () => {
  const entries = Object.entries(messages);

  it('has English and Japanese for every entry, with the same placeholders', () => {
    const problems: string[] = [];
    for (const [key, entry] of entries) {
      if (!entry.en.trim() || !entry.ja.trim()) {
        problems.push(`${key}: empty`);
      }
      if (!JAPANESE.test(entry.ja)) {
        problems.push(`${key}: the Japanese text has no Japanese in it`);
      }
      if (placeholdersOf(entry.en).join() !== placeholdersOf(entry.ja).join()) {
        problems.push(`${key}: placeholders differ (${placeholdersOf(entry.en).join()} / ${placeholdersOf(entry.ja).join()})`);
      }
      if (!/^[a-z][A-Za-z]*(\.[a-z_][A-Za-z_]*)+$/.test(key)) {
        problems.push(`${key}: keys are <area>.<rule>`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('has a generic sentence for every error code', () => {
    const codes: Record<ErrorCode, true> = {
      invalid_request: true,
      captcha_failed: true,
      unauthorized: true,
      forbidden: true,
      not_found: true,
      method_not_allowed: true,
      conflict: true,
      payload_too_large: true,
      rate_limited: true,
      internal_error: true,
      service_unavailable: true,
    };
    expect([...ERROR_CODES].sort()).toEqual(Object.keys(codes).sort());
    expect(ERROR_CODES.filter((code) => !isMessageKey(`error.${code}`))).toEqual([]);
  });

  it('fills placeholders, showing parameter names and request types by their Japanese labels', () => {
    expect(msg('validation.isLength', { field: 'password', min: 8, max: 128 })).toEqual({
      key: 'validation.isLength',
      en: 'password must be 8 to 128 characters',
      ja: 'パスワードは8〜128文字で入力してください。',
    });
    expect(msg('cities.pendingExists', { id: 3, type: 'region' }).ja).toContain('区域変更');
    expect(msg('cities.corners.alone', { fields: ['cityName', 'summary'] })).toMatchObject({
      en: 'corners must be sent alone, not with cityName, summary',
      ja: expect.stringContaining('自治体名、概要'),
    });
    // Nested parameters are labelled by their own name.
    expect(msg('validation.required', { field: 'logins.0.uuid' }).ja).toBe('UUIDを入力してください。');
    expect(Object.values(requestTypeLabels).every((label) => JAPANESE.test(label))).toBe(true);
  });

  it('refuses free text and missing placeholders at compile time', () => {
    // These lines are checked by `tsc --noEmit` (the test runner strips types): an error without a
    // catalogue key, or a key without its placeholders, does not compile.
    // @ts-expect-error free text is not a message (plain JavaScript callers still get a Japanese sentence)
    expect(toErrorResponse(ApiError.notFound('No such thing.'), 'v').body).toMatchObject({ message: 'No such thing.', message_ja: msg('error.not_found').ja });
    // @ts-expect-error cities.notFound needs {id}
    expect(msg('cities.notFound').en).toContain('{id}');
    // @ts-expect-error a key with placeholders cannot be used alone
    expect(ApiError.notFound('cities.notFound').message).toContain('{id}');
  });
});

describe('validation rules', () => {
  const storage = getMetadataStorage();
  const dtos = dtoClasses();
  const metadata = dtos.flatMap((dto) => storage.getTargetValidationMetadatas(dto, '', true, false));
  // Structural markers that never fail on their own.
  // TRANSFORMED_RULE marks a transformed field for the fast validation path and never fails.
  const structural = new Set(['conditionalValidation', 'isOptional', 'whitelistValidation', TRANSFORMED_RULE]);

  it('finds the DTO classes', () => {
    expect(dtos.length).toBeGreaterThan(10);
    expect(metadata.length).toBeGreaterThan(50);
  });

  it('gives every DTO parameter a Japanese label', () => {
    const missing = [...new Set(metadata.map((entry) => entry.propertyName))].filter((name) => !fieldLabels[name]).sort();
    expect(missing).toEqual([]);
  });

  it('answers every rule with a catalogue sentence in both languages', () => {
    const problems: string[] = [];
    for (const entry of metadata) {
      const constraint = entry.name ?? entry.type;
      if (structural.has(constraint)) {
        continue;
      }
      const where = `${(entry.target as { name?: string }).name}.${entry.propertyName} @${constraint}`;
      // ValidateNested always brings class-validator's own English; the pipe answers validation.nestedValidation.
      const own = constraint === 'nestedValidation' && typeof entry.message === 'string' && entry.message.endsWith('nested property $property must be either object or array');
      if (entry.message !== undefined && !own) {
        if (typeof entry.message !== 'string' || !isMessageKey(entry.message)) {
          problems.push(`${where}: its message is not a catalogue key (use rule('validation.…'))`);
          continue;
        }
        // A list's non-object elements are described by the pipe itself, with their position.
        const allowed = new Set(['field', ...(constraintArgs[constraint] ?? []), ...(constraint === EACH_OBJECT ? ['position'] : [])]);
        const extra = placeholdersOf(messages[entry.message].en).filter((name) => !allowed.has(name));
        if (extra.length > 0) {
          problems.push(`${where}: ${entry.message} has placeholders the rule cannot fill: ${extra.join(', ')}`);
        }
      } else if (!isMessageKey(`validation.${constraint}`)) {
        problems.push(`${where}: no catalogue entry validation.${constraint}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('puts message_ja on every detail of a failed validation', async () => {
    const pipe = createValidationPipe();
    const fail = async (value: unknown, metatype: new () => unknown): Promise<ApiError> => {
      try {
        await pipe.transform(value, { type: 'custom', metatype });
      } catch (error) {
        return error as ApiError;
      }
      throw new Error('validation passed');
    };

    const register = await fail({ userkey: 'ABCDEFGHIJ', password: 'short' }, RegisterDto);
    expect(toErrorResponse(register, 'v').body).toMatchObject({
      message: 'Invalid parameters: password, recaptcha.',
      message_ja: '入力内容を確認してください（パスワード、CAPTCHA）。',
      details: [
        { field: 'password', message: 'password must be 8 to 128 characters', message_ja: 'パスワードは8〜128文字で入力してください。' },
        { field: 'recaptcha', message: 'recaptcha is required', message_ja: 'CAPTCHAを入力してください。' },
      ],
    });

    const batch = await fail({ logins: [{ uuid: 'nope', mcid: 'Notch', loggedInAt: '2026-11-22T03:04:05Z' }] }, LoginBatchDto);
    expect(batch.details).toEqual([
      { field: 'logins.0.uuid', message: 'logins.0.uuid must be a game UUID with hyphens', message_ja: 'UUIDはハイフン付きのゲーム UUID で指定してください。' },
    ]);

    const empty = await fail({ logins: [] }, LoginBatchDto);
    expect(empty.details).toEqual([{ field: 'logins', message: 'logins must contain at least 1 item(s)', message_ja: 'ログイン記録は1件以上指定してください。' }]);
  });
});

describe('error paths', () => {
  const everything: Array<[string, unknown]> = [
    ['ApiError', ApiError.conflict('cities.nameTaken')],
    ['Nest 400', new BadRequestException('bad')],
    ['Nest 403', new ForbiddenException()],
    ['Nest 404', new NotFoundException()],
    ['HttpException 418', new HttpException('teapot', 418)],
    ['HttpException 502', new HttpException('upstream', 502)],
    ['plain Error', new Error('SELECT 1')],
    ['thrown string', 'oops'],
    ['null', null],
    ['database down', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['Fastify 413', Object.assign(new Error('too large'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' })],
    ['Fastify 400 JSON', Object.assign(new SyntaxError('Unexpected token } in JSON'), { statusCode: 400 })],
    ['Fastify other 4xx', Object.assign(new Error('something'), { statusCode: 406, code: 'FST_X' })],
  ];

  it.each(everything)('%s leaves with message_ja', (_name, error) => {
    const { body } = toErrorResponse(error, 'v');
    expect(body.message_ja).toMatch(JAPANESE);
    expect(body.message).toEqual(expect.any(String));
    for (const entry of body.details ?? []) {
      expect(entry.message_ja).toMatch(JAPANESE);
    }
  });

  it('is never built from Nest exceptions or free text outside src/common/errors', () => {
    const offenders = sourceFiles(SRC)
      .filter((path) => !path.includes(join('common', 'errors')))
      .filter((path) => /new (BadRequest|Unauthorized|Forbidden|NotFound|Conflict|PayloadTooLarge|InternalServerError|ServiceUnavailable|Http)Exception\(/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(SRC, path));
    expect(offenders).toEqual([]);
  });
});

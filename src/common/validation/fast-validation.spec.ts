import 'reflect-metadata';
import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { PickType } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { BanIdDto, BanlistUserDto } from '../../banlist-sync/dto/banlist.dto';
import { CityHistoryDto, CreateCityDto, EditCityDto, FindCitiesDto, FindCityByPathDto, ListRequestsDto, RejectDto } from '../../cities/dto/city.dto';
import { NicknameDto, RegisterDto, SignInDto } from '../../club/dto/club.dto';
import { AchievementsQueryDto, FindUserDto } from '../../users/dto/user-lookup.dto';
import { ApiError } from '../errors/api-error';
import { planFor } from './fast-validation';
import { Trim } from './transforms';
import { createValidationPipe, FastValidationPipe } from './validation.pipe';

const UUID = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
const long = (n: number): string => 'a'.repeat(n);
// Surrogate pairs: more UTF-16 units than characters, where class-validator counts characters.
const emoji = (n: number): string => '😀'.repeat(n);

const samples: Array<Record<string, unknown>> = [
  {},
  { id: '12' },
  { id: UUID },
  { id: UUID.toUpperCase() },
  { id: '0' },
  { id: 'abc' },
  { id: '12', name: 'Chuo' },
  { id: '12', name: '' },
  { id: '12', name: long(256) },
  { id: '12', name: long(257) },
  { id: '12', name: emoji(200) },
  { id: '12', name: null },
  { id: 12 },
  { id: ['1', '2'] },
  { uuid: UUID },
  { uuid: 'not-a-uuid' },
  { uuid: undefined },
  { uuid: null },
  { uuid: long(64) },
  { uuid: long(65) },
  { uuid: emoji(40) },
  { uuid: 5 },
  { mcid: 'Notch', extra: 'dropped' },
  { identifier: 'Notch' },
  { identifier: long(65) },
  { chatid: '123456789012345678' },
  { chatid: { nested: true } },
  { status: 'pending', type: 'create' },
  { status: 'bogus' },
  { banId: '12' },
  { banId: 'x' },
  { username: 'Notch', password: 'secret-password', recaptcha: 'r' },
  { nickname: '  Nick  ', recaptcha: 'r' },
];

const classes = [
  FindUserDto,
  AchievementsQueryDto,
  FindCityByPathDto,
  FindCitiesDto,
  BanlistUserDto,
  BanIdDto,
  CityHistoryDto,
  ListRequestsDto,
  RejectDto,
  CreateCityDto,
  EditCityDto,
  SignInDto,
  RegisterDto,
  NicknameDto,
];

type Outcome = { ok: true; value: unknown; className: string } | { ok: false; status: number; body: unknown };

async function outcome(pipe: ValidationPipe, metatype: new () => object, input: Record<string, unknown>): Promise<Outcome> {
  const metadata: ArgumentMetadata = { type: 'custom', metatype, data: undefined };
  try {
    const value = (await pipe.transform({ ...input }, metadata)) as object;
    return { ok: true, value: { ...value }, className: value.constructor.name };
  } catch (error) {
    if (!(error instanceof ApiError)) {
      throw error;
    }
    return { ok: false, status: error.getStatus(), body: error.getResponse() };
  }
}

describe(FastValidationPipe.name, () => {
  const reference = (() => {
    const pipe = createValidationPipe();
    // The same options, without the fast path: Nest's own transform.
    const plain = Object.create(pipe) as FastValidationPipe;
    plain.transform = (value, metadata) => ValidationPipe.prototype.transform.call(pipe, value, metadata) as Promise<unknown>;
    return plain;
  })();

  it.each(classes.map((metatype) => [metatype.name, metatype] as const))('gives the same result and error as the plain pipe for %s', async (_name, metatype) => {
    const fast = createValidationPipe();
    for (const input of samples) {
      expect({ input, result: await outcome(fast, metatype, input) }).toEqual({ input, result: await outcome(reference, metatype, input) });
    }
  });

  it('plans the lookup DTOs of the hot GET routes and refuses DTOs with transforms', () => {
    for (const metatype of [FindUserDto, AchievementsQueryDto, FindCityByPathDto, FindCitiesDto, BanlistUserDto, NicknameDto]) {
      expect({ name: metatype.name, planned: planFor(metatype) !== undefined }).toEqual({ name: metatype.name, planned: true });
    }
    for (const metatype of [BanIdDto, CreateCityDto, EditCityDto]) {
      expect({ name: metatype.name, planned: planFor(metatype) !== undefined }).toEqual({ name: metatype.name, planned: false });
    }
  });

  it('refuses a transformed field wherever it is inherited: subclasses and mapped types', () => {
    class Trimmed {
      @Trim()
      @IsString()
      @MaxLength(16)
      name: string;
    }
    class Subclass extends Trimmed {}
    class Picked extends PickType(Trimmed, ['name'] as const) {}
    class Plain {
      @IsString()
      @MaxLength(16)
      name: string;
    }
    expect([Trimmed, Subclass, Picked, Plain].map((metatype) => ({ name: metatype.name, planned: planFor(metatype) !== undefined }))).toEqual([
      { name: 'Trimmed', planned: false },
      { name: 'Subclass', planned: false },
      { name: 'Picked', planned: false },
      { name: 'Plain', planned: true },
    ]);
  });

  it('takes the fast path for valid lookups and leaves invalid ones to class-validator', async () => {
    const pipe = createValidationPipe();
    const slow = jest.spyOn(ValidationPipe.prototype, 'transform');
    try {
      const metadata: ArgumentMetadata = { type: 'custom', metatype: FindUserDto, data: undefined };
      await expect(pipe.transform({ identifier: 'Notch', ignored: 'x' }, metadata)).resolves.toEqual(Object.assign(new FindUserDto(), { identifier: 'Notch' }));
      expect(slow).not.toHaveBeenCalled();
      await expect(pipe.transform({ identifier: long(65) }, metadata)).rejects.toThrow(ApiError);
      expect(slow).toHaveBeenCalledTimes(1);
    } finally {
      slow.mockRestore();
    }
  });
});

import 'reflect-metadata';
import type { ArgumentMetadata } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error';
import { INT_COLUMN_MAX } from '../../common/validation/column-range';
import { nonObjectElements } from '../../common/validation/lists';
import { createValidationPipe } from '../../common/validation/validation.pipe';
import { AchievementDefinitionsDto, LoginBatchDto, UnlockBatchDto } from './game-server.dto';

const UUID = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
const AT = '2024-01-01T00:00:00Z';
const pipe = createValidationPipe();

const batches = {
  logins: { dto: LoginBatchDto, item: { uuid: UUID, mcid: 'Notch', loggedInAt: AT } },
  achievements: { dto: AchievementDefinitionsDto, item: { id: 1, title: 'First city', description: 'd' } },
  unlocks: { dto: UnlockBatchDto, item: { uuid: UUID, achievementId: 1, unlockedAt: AT } },
} as const;
type BatchName = keyof typeof batches;

async function validate(name: BatchName, items: unknown[]): Promise<{ ok: true } | { ok: false; status: number; fields: string[]; ja: string[] }> {
  const metadata: ArgumentMetadata = { type: 'body', metatype: batches[name].dto };
  try {
    await pipe.transform({ [name]: items }, metadata);
    return { ok: true };
  } catch (error) {
    if (!(error instanceof ApiError)) {
      throw error;
    }
    return { ok: false, status: error.getStatus(), fields: (error.details ?? []).map((entry) => entry.field), ja: (error.details ?? []).map((entry) => entry.message_ja) };
  }
}

describe('nonObjectElements', () => {
  it('lists the positions of elements that are not JSON objects', () => {
    expect(nonObjectElements([{}, [], null, 'x', 5, true, { a: 1 }, [{}]])).toEqual([1, 2, 3, 4, 5, 7]);
    expect(nonObjectElements([{}, {}])).toEqual([]);
    expect(nonObjectElements('not a list')).toEqual([]);
  });
});

describe('game-server batches: every element is an object', () => {
  const names = Object.keys(batches) as BatchName[];

  it.each(names)('%s: a valid batch passes', async (name) => {
    expect(await validate(name, [batches[name].item])).toEqual({ ok: true });
  });

  it.each(names.flatMap((name) => [[], [[]], [[1, 2]], [[batches[name].item]], null, 'x', 7, true].map((bad) => [name, bad] as [BatchName, unknown])))(
    '%s: an element %j is refused with 400 naming it, whatever stands beside it',
    async (name, bad) => {
      const result = await validate(name, [batches[name].item, bad]);
      expect(result).toMatchObject({ ok: false, status: 400, fields: [`${name}.1`] });
      expect((result as { ja: string[] }).ja[0]).toMatch(/2件目はオブジェクトで指定してください。$/);
    },
  );

  it.each(names)('%s: every element that is not an object is named, and none of the items\' own rules run before', async (name) => {
    const result = await validate(name, [[], { broken: true }, [[]], null]);
    expect(result).toMatchObject({ ok: false, status: 400, fields: [`${name}.0`, `${name}.2`, `${name}.3`] });
  });
});

describe('game-server batches: ids fit an integer column on both databases', () => {
  const cases: Array<[BatchName, string]> = [
    ['achievements', 'id'],
    ['unlocks', 'achievementId'],
  ];

  it.each(cases)('%s.%s: 1 and 2147483647 pass', async (name, field) => {
    expect(await validate(name, [{ ...batches[name].item, [field]: 1 }])).toEqual({ ok: true });
    expect(await validate(name, [{ ...batches[name].item, [field]: INT_COLUMN_MAX }])).toEqual({ ok: true });
  });

  it.each(cases.flatMap(([name, field]) => [2 ** 31, 2 ** 53, 1e308, 0, -1, 1.5, '2147483648'].map((value) => [name, field, value] as [BatchName, string, unknown])))(
    '%s.%s = %j is refused with 400 naming the field',
    async (name, field, value) => {
      expect(await validate(name, [batches[name].item, { ...batches[name].item, [field]: value }])).toMatchObject({ ok: false, status: 400, fields: [`${name}.1.${field}`] });
    },
  );
});

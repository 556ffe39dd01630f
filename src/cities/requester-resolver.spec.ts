import type { ApiKeyPrincipal, ApiKeysService } from '../api-keys/api-keys.service';
import type { ClubTokensService } from '../club/club-tokens.service';
import { ApiError } from '../common/errors/api-error';
import type { Transaction } from '../database/transaction';
import type { UserKeysService } from '../user-keys/user-keys.service';
import { RequesterResolver } from './requester-resolver';

const PLAYER = '00000000-0000-4000-8000-000000000001';
const USER_KEY = 'abcdefghij';
const CLUB_TOKEN = 'A'.repeat(32);

function resolverWith(principal?: ApiKeyPrincipal) {
  const userKeys = { peek: jest.fn(() => Promise.resolve({ id: 7, playerUuid: PLAYER })), spend: jest.fn(() => Promise.resolve()) };
  const clubTokens = { authenticate: jest.fn(() => Promise.resolve({ playerUuid: PLAYER })) };
  const apiKeys = { authenticate: jest.fn(() => Promise.resolve(principal)) };
  const resolver = new RequesterResolver(
    userKeys as unknown as UserKeysService,
    clubTokens as unknown as ClubTokensService,
    apiKeys as unknown as ApiKeysService,
  );
  return { resolver, userKeys, clubTokens, apiKeys };
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ApiError)) {
    throw new Error('expected an ApiError');
  }
  return { status: error.getStatus(), message: error.message };
}

describe(RequesterResolver.name, () => {
  it('reads a user key without spending it, and names the player as the actor', async () => {
    const { resolver, userKeys } = resolverWith();
    await expect(resolver.resolve({ usertoken: USER_KEY }, false)).resolves.toEqual({
      playerUuid: PLAYER,
      actor: `player:${PLAYER}`,
      userKey: { id: 7, playerUuid: PLAYER },
    });
    expect(userKeys.peek).toHaveBeenCalledWith(USER_KEY);
    expect(userKeys.spend).not.toHaveBeenCalled();
  });

  it('takes a 32-character token as a club session, with no key to spend', async () => {
    const { resolver, clubTokens, userKeys } = resolverWith();
    const requester = await resolver.resolve({ usertoken: CLUB_TOKEN }, false);
    expect(requester).toEqual({ playerUuid: PLAYER, actor: `club:${PLAYER}` });
    expect(clubTokens.authenticate).toHaveBeenCalledWith(CLUB_TOKEN);
    await resolver.spendKey({} as Transaction, requester);
    expect(userKeys.spend).not.toHaveBeenCalled();
  });

  it('spends the user key in the transaction it is given', async () => {
    const { resolver, userKeys } = resolverWith();
    const tx = {} as Transaction;
    await resolver.spendKey(tx, await resolver.resolve({ usertoken: USER_KEY }, false));
    expect(userKeys.spend).toHaveBeenCalledWith(tx, { id: 7, playerUuid: PLAYER });
  });

  it('answers 401 without a user token, before looking at force or the API key', async () => {
    const { resolver, apiKeys } = resolverWith({ id: 1, name: 'ops', scopes: ['operator'] });
    expect(await refusal(resolver.resolve({ apikey: 'secret' }, true))).toEqual({ status: 401, message: expect.stringContaining('user key') as string });
    expect(apiKeys.authenticate).not.toHaveBeenCalled();
  });

  it('answers 401 to a token of neither format', async () => {
    const { resolver } = resolverWith();
    expect((await refusal(resolver.resolve({ usertoken: 'short' }, false))).status).toBe(401);
  });

  it('ignores the API key unless force is asked for', async () => {
    const { resolver, apiKeys } = resolverWith();
    expect((await resolver.resolve({ usertoken: USER_KEY, apikey: 'secret' }, false)).forcedBy).toBeUndefined();
    expect(apiKeys.authenticate).not.toHaveBeenCalled();
  });

  it('forces with an operator key: 401 without one or for an unknown one, 403 without the scope', async () => {
    expect((await refusal(resolverWith().resolver.resolve({ usertoken: USER_KEY }, true))).status).toBe(401);
    expect((await refusal(resolverWith(undefined).resolver.resolve({ usertoken: USER_KEY, apikey: 'unknown' }, true))).status).toBe(401);
    const reader = resolverWith({ id: 2, name: 'reader', scopes: [] });
    expect((await refusal(reader.resolver.resolve({ usertoken: USER_KEY, apikey: 'secret' }, true))).status).toBe(403);
    const operator = resolverWith({ id: 3, name: 'ops', scopes: ['operator'] });
    expect((await operator.resolver.resolve({ usertoken: USER_KEY, apikey: 'secret' }, true)).forcedBy).toBe('apikey:ops');
  });
});

import fc from 'fast-check';
import { deciderLabel, discordMessage, escapeMarkdown, playersOf } from './discord-message';

const requester = { uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', mcid: 'Notch' };
const names = new Map([[requester.uuid, { mcid: 'Notch', chatid: '123456789012345678' }]]);

describe('discordMessage', () => {
  it('names the city, mentions the requester and says who decided', () => {
    const body = discordMessage(
      {
        id: 3,
        type: 'city.request.approved',
        at: '2026-11-22T03:04:05.000Z',
        data: { request: { id: 1, type: 'update', cityId: 7, requester, decidedBy: 'club:11111111-2222-4333-a444-555555555555' }, city: { id: 7, name: 'Chuo' } },
      },
      names,
    );
    expect(body.content).toBe('<@123456789012345678> 「Chuo」の情報変更申請が承認されました。');
    expect(body.embeds[0]).toMatchObject({ title: '自治体の申請（情報変更）が承認されました', timestamp: '2026-11-22T03:04:05.000Z', footer: { text: 'イベント #3' } });
    expect(body.embeds[0].fields.find((field) => field.name === '判断者')?.value).toBe('クラブ管理者 11111111-2222-4333-a444-555555555555');
    expect(body.allowed_mentions).toEqual({ parse: [], users: ['123456789012345678'] });
  });

  it('tells a withdrawal from a rejection and shows the reason of a rejection only', () => {
    const withdrawn = discordMessage({ id: 4, type: 'city.request.rejected', at: 'now', data: { request: { type: 'create', requester, rejectReason: 'withdrawn', decidedBy: `club:${requester.uuid}` }, city: null } }, names);
    expect(withdrawn.content).toContain('取り下げ');
    expect(withdrawn.embeds[0].fields.map((field) => field.name)).not.toContain('理由');
    expect(withdrawn.embeds[0].fields.map((field) => field.name)).not.toContain('判断者');
    const rejected = discordMessage({ id: 5, type: 'city.request.rejected', at: 'now', data: { request: { type: 'create', requester, rejectReason: 'No', changes: { cityName: 'Kita' } }, city: null } }, names);
    expect(rejected.content).toBe('<@123456789012345678> 「Kita」の新規登録申請は却下されました。');
    expect(rejected.embeds[0].fields).toContainEqual({ name: '理由', value: 'No', inline: false });
  });

  it('tells of a punishment issued and lifted, by game id, without mentioning anyone', () => {
    const punishment = { id: 9, kind: 'chatjail', uuid: requester.uuid, mcid: 'Notch', reason: 'spam **x**', testment: null, active: true, issuedBy: 'CONSOLE', issuedAt: 'now', liftedAt: null };
    const issued = discordMessage({ id: 8, type: 'punishment.issued', at: 'now', data: { punishment } }, names);
    expect(issued.content).toBe('Notch に ChatJail（発言禁止） が科されました。');
    expect(issued.embeds[0].title).toBe('処罰（ChatJail（発言禁止））が記録されました');
    expect(issued.embeds[0].fields).toEqual(
      expect.arrayContaining([
        { name: '理由', value: 'spam \\*\\*x\\*\\*', inline: false },
        { name: '実行者', value: 'CONSOLE', inline: true },
        { name: '処罰 ID', value: '#9', inline: true },
      ]),
    );
    expect(issued.allowed_mentions).toEqual({ parse: [], users: [] });
    const lifted = discordMessage({ id: 10, type: 'punishment.lifted', at: 'now', data: { punishment: { ...punishment, active: false, kind: 'vban' } } }, names);
    expect(lifted.content).toBe('Notch の VBan（BAN） が解除されました。');
    expect(playersOf({ punishment })).toEqual([requester.uuid]);
  });

  it('escapes markdown in names, never pings others and stays within Discord limits', () => {
    const body = discordMessage({ id: 6, type: 'city.deleted', at: 'now', data: { request: null, city: { id: 1, name: `@everyone **${'x'.repeat(3000)}**` } } }, new Map());
    expect(body.content.length).toBeLessThanOrEqual(2000);
    expect(body.content).toContain('\\*\\*');
    expect(body.allowed_mentions).toEqual({ parse: [], users: [] });
    expect(body.embeds[0].fields.every((field) => field.value.length <= 1024)).toBe(true);
  });

  it('shows a masked link, a heading, mentions and emphasis typed by players and operators literally, in every field', () => {
    const typedName = '[公式サイト](https://evil.example) # 見出し';
    const typedReason = '**不可** <@everyone> <@&42> <#7> @here ||秘密|| `code`\n# 見出し\n- 項目\n> 引用';
    const player = { uuid: requester.uuid, mcid: '__Notch__' };
    const linked = new Map([[requester.uuid, { mcid: '__Notch__', chatid: '123456789012345678' }]]);
    const body = discordMessage(
      { id: 8, type: 'city.request.rejected', at: 'now', data: { request: { id: 2, type: 'create', requester: player, rejectReason: typedReason, decidedBy: 'apikey:ops_night' }, city: { id: 9, name: typedName } } },
      linked,
    );
    const texts = [body.content, ...body.embeds[0].fields.map((field) => field.value)];
    for (const text of texts) {
      // No masked link, no mention but the requester's, no heading, bold, spoiler or code survives.
      expect(text).not.toMatch(/(^|[^\\])\[[^\]]*(^|[^\\])\]\(/);
      expect(text.replace('<@123456789012345678>', '')).not.toMatch(/(^|[^\\])<[@#]/);
      expect(text).not.toMatch(/(^|[^\\])(\*\*|\|\||`|__)/);
      expect(text).not.toMatch(/^#/m);
      expect(text).not.toMatch(/@(everyone|here)/);
      expect(text).not.toMatch(/https:\/\//);
    }
    expect(body.content).toBe('<@123456789012345678> 「\\[公式サイト\\]\\(https\\://evil.example\\) \\# 見出し」の新規登録申請は却下されました。');
    expect(body.embeds[0].fields).toContainEqual({ name: '自治体', value: '\\[公式サイト\\]\\(https\\://evil.example\\) \\# 見出し (#9)', inline: true });
    expect(body.embeds[0].fields).toContainEqual({ name: '申請者', value: '<@123456789012345678> (\\_\\_Notch\\_\\_)', inline: true });
    expect(body.embeds[0].fields).toContainEqual({ name: '判断者', value: '運営 (ops\\_night)', inline: true });
    expect(body.embeds[0].fields.find((field) => field.name === '理由')?.value).toBe(
      '\\*\\*不可\\*\\* \\<@\u200beveryone\\> \\<@&42\\> \\<\\#7\\> @\u200bhere \\|\\|秘密\\|\\| \\`code\\`\n\\# 見出し\n\\- 項目\n\\> 引用',
    );
    // The service's own mention of the requester stays, and is the only one allowed to ping.
    expect(body.allowed_mentions).toEqual({ parse: [], users: ['123456789012345678'] });
  });

  it('leaves no Markdown character unescaped, and drops nothing, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 60 }), (text) => {
        const escaped = escapeMarkdown(text);
        let plain = '';
        for (let index = 0; index < escaped.length; index += 1) {
          if (escaped[index] === '\\') {
            index += 1;
            plain += escaped[index] ?? '';
          } else {
            expect('[]()<>#*_~|`'.includes(escaped[index])).toBe(false);
            plain += escaped[index];
          }
        }
        expect(plain.replace(/\u200b/g, '')).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('summarises a ban-list run and a test ping in Japanese', () => {
    expect(discordMessage({ id: 7, type: 'banlist.sync.finished', at: 'now', data: { summary: { players: 10, updated: 9, failed: 1, removedBans: 2 } } }, new Map()).content).toBe(
      'BANリストの同期が完了しました（対象 10 人、更新 9 人、失敗 1 人、解除された BAN 2 件）。',
    );
    expect(discordMessage({ id: null, type: 'ping', at: 'now', data: { webhookId: 1 } }, new Map()).content).toContain('テスト通知');
  });

  it('lists the players to look up and labels deciders', () => {
    expect(playersOf({ request: { requester, decidedBy: 'club:aaaa' }, city: { owner: { uuid: requester.uuid } } })).toEqual([requester.uuid, 'aaaa']);
    expect(deciderLabel('apikey:ops', new Map())).toBe('運営 (ops)');
    expect(deciderLabel(null, new Map())).toBeNull();
  });
});

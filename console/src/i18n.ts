import { ref } from 'vue';

export type Lang = 'ja' | 'en';

const STORAGE_KEY = 'community-console.lang';

const en = {
  consoleTitle: 'City console',
  accountTitle: 'Club account',
  language: 'Language',
  signIn: 'Sign in',
  signOut: 'Sign out',
  signingIn: 'Signing in…',
  apiKey: 'API key',
  apiKeyHelp: 'An operator API key (csk_…), issued with the command line.',
  withApiKey: 'Operator API key',
  withAccount: 'Club admin account',
  gameId: 'Game id or uuid',
  gameIdShort: 'Game id',
  password: 'Password',
  passwordOnlyKey: 'Password sign-in needs the CAPTCHA, which is not configured here (RECAPTCHA_SITE_KEY): sign in with an operator API key.',
  notOperator: 'This API key does not have the operator scope.',
  unknownKey: 'Unknown API key.',
  notAdmin: 'This account is not a club admin. Club admins and operators only.',
  sessionEnded: 'Your session ended; please sign in again.',
  signedInAsKey: 'Signed in with an operator API key',
  signedInAs: 'Signed in as {name}',
  tabRequests: 'Requests',
  tabCities: 'Cities',
  tabBanlist: 'Ban list',
  pendingRequests: 'Pending requests',
  oldestFirst: 'Oldest first.',
  noPending: 'No pending requests.',
  loadMore: 'Load more',
  loading: 'Loading…',
  refresh: 'Refresh',
  type_create: 'New city',
  type_region: 'Region change',
  type_update: 'Information change',
  requester: 'Requester',
  age: 'Filed',
  open: 'Review',
  close: 'Close',
  approve: 'Approve',
  reject: 'Reject',
  rejectReason: 'Reason for rejection (optional)',
  approved: 'Approved: {name}',
  rejected: 'Rejected: {name}',
  ownRequest: 'You filed this request: another admin or an operator must decide it.',
  conflicts: 'Conflicts if approved now',
  noConflicts: 'None: it can be approved.',
  conflictsUnavailable: 'The conflict check is not available on this server.',
  conflict_name: 'Name taken by',
  conflict_kana: 'Reading taken by',
  conflict_regionName: 'Region id taken by',
  conflict_region: 'Overlaps',
  requestedChanges: 'Requested',
  drawingOf: 'Map of {name}',
  legendRequested: 'requested outline',
  legendCurrent: 'current outline',
  legendCity: 'registered cities',
  noDrawing: 'This request changes no outline.',
  blocks: '{count} blocks',
  cornersCount: '{count} corners',
  axisX: 'x → (east)',
  axisZ: 'z ↓ (south)',
  north: 'N ↑',
  requestedSuffix: '{name} (requested)',
  currentSuffix: '{name} (now)',
  city: 'City',
  name: 'Name',
  reading: 'Reading',
  summary: 'Summary',
  origin: 'Origin of the name',
  regionName: 'Region id',
  count: 'Blocks',
  reason: 'Reason (large city)',
  remarks: 'Remarks',
  owner: 'Administrator',
  createdAt: 'Registered',
  updatedAt: 'Updated',
  corners: 'Corners',
  searchCities: 'Search cities by name or reading',
  citiesCount: '{count} registered cities',
  noMatch: 'No city matches.',
  history: 'History',
  noHistory: 'No history.',
  deleteCity: 'Delete city',
  confirmDelete: 'Delete {name}? Its pending requests are rejected and its name and region freed.',
  confirm: 'Delete',
  cancel: 'Cancel',
  deleted: 'Deleted: {name}',
  back: 'Back to the list',
  banlistSync: 'Ban-list sync',
  banlistHelp: 'Refreshes every known player from the ban-list service now (it also runs on its schedule).',
  runSync: 'Run a ban-list sync now',
  syncRunning: 'Syncing…',
  syncSummary: 'Last run',
  players: 'Players',
  updated: 'Updated',
  failed: 'Failed',
  removedBans: 'Bans removed',
  startedAt: 'Started',
  finishedAt: 'Finished',
  error: 'Error',
  notAvailable: 'Not available on this server yet.',
  // Account page
  accountIntro: 'Your club-site account: sign in, or set a new password with a key from /getuserkey in game.',
  resetTitle: 'Forgot your password?',
  resetHelp: 'Type /getuserkey in game and enter the key here with a new password.',
  userKey: 'In-game key',
  newPassword: 'New password',
  currentPassword: 'Current password',
  resetPassword: 'Set new password',
  changePassword: 'Change password',
  passwordChanged: 'Password changed.',
  deleteAccount: 'Delete account',
  deleteAccountHelp: 'Deletes your club account and signs you out. Your game records stay. You can register again later with a new key.',
  deleteConfirm: 'I understand: delete my account',
  myRequests: 'My city requests',
  noRequests: 'You have filed no city requests.',
  withdraw: 'Withdraw',
  withdrawn: 'Withdrawn.',
  status_pending: 'pending',
  status_approved: 'approved',
  status_rejected: 'rejected',
  accountGroup: 'Group',
  nickname: 'Nickname',
  captchaMissing: 'This needs the CAPTCHA, which is not configured on this server.',
  captchaWait: 'Please complete the CAPTCHA.',
  consoleLink: 'Operator console',
  accountLink: 'Account page',
};

export type MessageKey = keyof typeof en;

const ja: Record<MessageKey, string> = {
  consoleTitle: '自治体管理コンソール',
  accountTitle: 'クラブアカウント',
  language: '言語',
  signIn: 'サインイン',
  signOut: 'サインアウト',
  signingIn: 'サインイン中…',
  apiKey: 'APIキー',
  apiKeyHelp: 'コマンドラインで発行した運営用APIキー（csk_…）。',
  withApiKey: '運営APIキー',
  withAccount: 'クラブ管理者',
  gameId: 'ゲームIDまたはUUID',
  gameIdShort: 'ゲームID',
  password: 'パスワード',
  passwordOnlyKey: 'パスワードでのサインインにはCAPTCHAが必要ですが、このサーバーでは設定されていません（RECAPTCHA_SITE_KEY）。運営APIキーでサインインしてください。',
  notOperator: 'このAPIキーには運営（operator）の権限がありません。',
  unknownKey: 'APIキーが正しくありません。',
  notAdmin: 'このアカウントはクラブ管理者ではありません。管理者と運営のみ利用できます。',
  sessionEnded: 'セッションが終了しました。もう一度サインインしてください。',
  signedInAsKey: '運営APIキーでサインイン中',
  signedInAs: '{name} としてサインイン中',
  tabRequests: '申請',
  tabCities: '自治体',
  tabBanlist: 'BANリスト',
  pendingRequests: '審査待ちの申請',
  oldestFirst: '古い順。',
  noPending: '審査待ちの申請はありません。',
  loadMore: 'さらに読み込む',
  loading: '読み込み中…',
  refresh: '更新',
  type_create: '新規自治体',
  type_region: '区域変更',
  type_update: '情報変更',
  requester: '申請者',
  age: '申請',
  open: '審査する',
  close: '閉じる',
  approve: '承認',
  reject: '却下',
  rejectReason: '却下の理由（任意）',
  approved: '承認しました：{name}',
  rejected: '却下しました：{name}',
  ownRequest: '自分の申請です。他の管理者か運営が判断します。',
  conflicts: '今承認した場合の衝突',
  noConflicts: 'なし：承認できます。',
  conflictsUnavailable: 'このサーバーでは衝突の確認ができません。',
  conflict_name: '名前が重複：',
  conflict_kana: '読みが重複：',
  conflict_regionName: '保護区域IDが重複：',
  conflict_region: '区域が重なる：',
  requestedChanges: '申請内容',
  drawingOf: '{name} の地図',
  legendRequested: '申請された区域',
  legendCurrent: '現在の区域',
  legendCity: '登録済みの自治体',
  noDrawing: 'この申請は区域を変更しません。',
  blocks: '{count} ブロック',
  cornersCount: '角 {count} 個',
  axisX: 'x → （東）',
  axisZ: 'z ↓ （南）',
  north: '北 ↑',
  requestedSuffix: '{name}（申請）',
  currentSuffix: '{name}（現在）',
  city: '自治体',
  name: '名前',
  reading: '読み',
  summary: '概要',
  origin: '名前の由来',
  regionName: '保護区域ID',
  count: 'ブロック数',
  reason: '理由（大きな自治体）',
  remarks: '備考',
  owner: '管理者',
  createdAt: '登録',
  updatedAt: '更新',
  corners: '角の座標',
  searchCities: '名前または読みで自治体を検索',
  citiesCount: '登録済みの自治体 {count} 件',
  noMatch: '該当する自治体はありません。',
  history: '履歴',
  noHistory: '履歴はありません。',
  deleteCity: '自治体を削除',
  confirmDelete: '{name} を削除しますか？審査待ちの申請は却下され、名前と区域は解放されます。',
  confirm: '削除する',
  cancel: 'キャンセル',
  deleted: '削除しました：{name}',
  back: '一覧に戻る',
  banlistSync: 'BANリストの同期',
  banlistHelp: '既知のプレイヤー全員の情報をBANリストサービスから今すぐ更新します（定期実行もされます）。',
  runSync: '今すぐ同期する',
  syncRunning: '同期中…',
  syncSummary: '前回の実行',
  players: 'プレイヤー',
  updated: '更新',
  failed: '失敗',
  removedBans: '解除されたBAN',
  startedAt: '開始',
  finishedAt: '終了',
  error: 'エラー',
  notAvailable: 'このサーバーではまだ利用できません。',
  accountIntro: 'クラブサイトのアカウントです。サインインするか、ゲーム内の /getuserkey で得たキーで新しいパスワードを設定できます。',
  resetTitle: 'パスワードを忘れたら',
  resetHelp: 'ゲーム内で /getuserkey と入力し、表示されたキーと新しいパスワードを入力してください。',
  userKey: 'ゲーム内キー',
  newPassword: '新しいパスワード',
  currentPassword: '現在のパスワード',
  resetPassword: '新しいパスワードを設定',
  changePassword: 'パスワードを変更',
  passwordChanged: 'パスワードを変更しました。',
  deleteAccount: 'アカウントを削除',
  deleteAccountHelp: 'クラブアカウントを削除してサインアウトします。ゲームの記録は残ります。あとで新しいキーで再登録できます。',
  deleteConfirm: '理解しました：アカウントを削除する',
  myRequests: '自分の自治体申請',
  noRequests: '自治体の申請はありません。',
  withdraw: '取り下げる',
  withdrawn: '取り下げました。',
  status_pending: '審査待ち',
  status_approved: '承認済み',
  status_rejected: '却下',
  accountGroup: 'グループ',
  nickname: 'ニックネーム',
  captchaMissing: 'この操作にはCAPTCHAが必要ですが、このサーバーでは設定されていません。',
  captchaWait: 'CAPTCHAを完了してください。',
  consoleLink: '運営コンソール',
  accountLink: 'アカウントページ',
};

const MESSAGES: Record<Lang, Record<MessageKey, string>> = { en, ja };

function initialLang(): Lang {
  const fromUrl = new URLSearchParams(window.location.search).get('lang');
  if (fromUrl === 'en' || fromUrl === 'ja') {
    localStorage.setItem(STORAGE_KEY, fromUrl);
    return fromUrl;
  }
  const stored = localStorage.getItem(STORAGE_KEY);
  return stored === 'en' ? 'en' : 'ja';
}

/** Japanese by default; `?lang=en` switches, and the choice is remembered in this browser. */
export const lang = ref<Lang>(initialLang());
document.documentElement.lang = lang.value;

export function setLang(next: Lang): void {
  lang.value = next;
  localStorage.setItem(STORAGE_KEY, next);
  document.documentElement.lang = next;
  const url = new URL(window.location.href);
  url.searchParams.set('lang', next);
  window.history.replaceState(window.history.state, '', url);
}

export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  return MESSAGES[lang.value][key].replace(/\{(\w+)\}/g, (_whole, name: string) => String(values[name] ?? ''));
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86400],
  ['month', 30 * 86400],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 days ago" / "3日前". */
export function age(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(lang.value, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) {
      return format.format(Math.round(seconds / size), unit);
    }
  }
  return format.format(0, 'minute');
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) {
    return '—';
  }
  return new Intl.DateTimeFormat(lang.value === 'ja' ? 'ja-JP' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

export function number(value: number): string {
  return new Intl.NumberFormat(lang.value === 'ja' ? 'ja-JP' : 'en-US').format(value);
}

/**
 * The message catalogue: every sentence a client can read in an error, English and Japanese side
 * by side (docs/api.md, Requests and responses). The Japanese is written for players (the club site shows it as is):
 * polite, natural, saying what to do, not a word-for-word translation of the English.
 *
 * HOW TO ADD A MESSAGE (one line):
 *   'cities.regionName.taken': { en: 'The region name {name} is already taken.', ja: '地域名「{name}」はすでに使われています。' },
 * Keys are `<area>.<rule>`. Then throw it:
 *   throw ApiError.conflict('club.accountExists');                       // no placeholder: the key alone
 *   throw ApiError.notFound(msg('cities.notFound', { id: cityId }));     // placeholders: msg(key, params)
 *   throw ApiError.invalidField('cityName', msg('cities.name.length', { max: 64 }));
 * TypeScript checks the key and that every `{placeholder}` gets a value; ApiError accepts nothing
 * else, so no error can leave without `message_ja`. A unit test (messages.spec.ts) checks that both
 * languages are present with the same placeholders.
 *
 * Placeholders: `{name}`; values are strings, numbers or lists (joined with ", " and "、").
 * Three placeholder names are shown through labels in Japanese:
 *   {field} / {fields}  a parameter name → its label in `fieldLabels` below ("password" → パスワード)
 *   {type}              a request type → `requestTypeLabels` (region → 区域変更)
 *
 * VALIDATION (DTO decorators): the validation pipe answers a failed class-validator constraint with
 * `validation.<constraint name>` (e.g. `validation.isLength`, params: {field} plus the decorator's
 * arguments as named in `constraintArgs` of validation.pipe.ts), `validation.required` when the
 * value is absent, else `validation.invalid`. A decorator may name its own entry instead:
 *   @Matches(UUID_PATTERN, rule('validation.uuid'))
 * A new DTO field needs a line in `fieldLabels`; the unit test lists any field without one.
 */

export interface CatalogueEntry {
  readonly en: string;
  readonly ja: string;
}

export const messages = {
  // ── Generic, one per error code (used when nothing more specific is known) ────────────────
  'error.invalid_request': { en: 'The request is invalid.', ja: 'リクエストの内容が正しくありません。' },
  'error.captcha_failed': { en: 'The CAPTCHA verification failed.', ja: 'ロボットでないことの確認（CAPTCHA）に失敗しました。もう一度お試しください。' },
  'error.unauthorized': { en: 'Authentication is required.', ja: 'ログインが必要です。' },
  'error.forbidden': { en: 'You are not allowed to do this.', ja: 'この操作を行う権限がありません。' },
  'error.not_found': { en: 'Not found.', ja: 'お探しのものは見つかりませんでした。' },
  'error.method_not_allowed': { en: 'This method is not allowed here.', ja: 'この操作はここでは使えません。' },
  'error.conflict': { en: 'The request conflicts with the current state.', ja: '現在の状態と食い違うため、処理できませんでした。' },
  'error.payload_too_large': { en: 'The request body is too large.', ja: '送信されたデータが大きすぎます。' },
  'error.rate_limited': { en: 'Too many requests.', ja: 'アクセスが集中しています。しばらく待ってからもう一度お試しください。' },
  'error.internal_error': { en: 'An internal error occurred.', ja: 'サーバーでエラーが発生しました。時間をおいてもう一度お試しください。' },
  'error.service_unavailable': { en: 'The service is temporarily unavailable; try again shortly.', ja: '現在サービスを利用できません。しばらくしてからもう一度お試しください。' },

  // ── Transport: routes, bodies, HTTP ─────────────────────────────────────────────────────────
  'http.noEndpoint': { en: 'No endpoint at {method} {path}.', ja: '{method} {path} という API はありません。URL を確認してください。' },
  'http.methodNotAllowed': { en: 'Method {method} is not allowed here; use {allow}.', ja: 'この URL では {method} は使えません。{allow} でアクセスしてください。' },
  'http.useMethod': { en: 'Method not allowed here; use {allow}.', ja: 'この URL では {allow} でアクセスしてください。' },
  'http.duplicateQuery': { en: '{field} is given more than once in the query string', ja: '{field}が URL に複数回指定されています。1 回だけ指定してください。' },
  'http.duplicateBody': { en: '{field} is given more than once in the body', ja: '{field}が送信内容に複数回含まれています。1 回だけ指定してください。' },
  'http.pathParamTooLong': { en: 'A path parameter is longer than 100 characters.', ja: 'URL に含まれる値が長すぎます（100 文字まで）。' },
  'http.malformedUrl': { en: 'The URL is malformed.', ja: 'URL の形式が正しくありません。' },
  'http.headersTooLarge': { en: 'The request line or headers are too large.', ja: 'URL またはリクエストヘッダーが大きすぎます。' },
  'http.timeout': { en: 'The request took too long to arrive.', ja: 'リクエストの受信に時間がかかりすぎたため、中断しました。もう一度お試しください。' },
  'http.invalidHttp': { en: 'The request is not valid HTTP.', ja: 'リクエストの形式が正しくありません。' },
  'http.bodyTooLarge': { en: 'The request body is too large.', ja: '送信されたデータが大きすぎます。' },
  'http.unsupportedMediaType': { en: 'The request body has an unsupported content type.', ja: '送信データの形式（Content-Type）に対応していません。' },
  'http.emptyJsonBody': { en: 'The request body is empty but its content type is JSON.', ja: '送信データが空です。JSON を送ってください。' },
  'http.contentLengthMismatch': { en: 'The Content-Length header does not match the body.', ja: '送信データの長さが Content-Length と一致しません。' },
  'http.tooDeep': { en: 'The body is nested deeper than {max} levels.', ja: '送信データの入れ子が深すぎます（{max} 段まで）。' },
  'http.unparsableBody': { en: 'The request body could not be parsed.', ja: '送信データを読み取れませんでした。形式を確認してください。' },

  // ── Validation of parameters (see the header: validation.<constraint>) ──────────────────────
  'validation.invalidParameter': { en: 'Invalid parameter: {fields}.', ja: '{fields}の入力内容を確認してください。' },
  'validation.invalidParameters': { en: 'Invalid parameters: {fields}.', ja: '入力内容を確認してください（{fields}）。' },
  'validation.required': { en: '{field} is required', ja: '{field}を入力してください。' },
  'validation.invalid': { en: '{field} is invalid', ja: '{field}の値が正しくありません。' },
  'validation.isString': { en: '{field} must be a string', ja: '{field}は文字列で指定してください。' },
  'validation.isLength': { en: '{field} must be {min} to {max} characters', ja: '{field}は{min}〜{max}文字で入力してください。' },
  'validation.maxLength': { en: '{field} must be at most {max} characters', ja: '{field}は{max}文字以内で入力してください。' },
  'validation.minLength': { en: '{field} must be at least {min} characters', ja: '{field}は{min}文字以上で入力してください。' },
  'validation.matches': { en: '{field} is not in the expected format', ja: '{field}の形式が正しくありません。' },
  'validation.isInt': { en: '{field} must be an integer', ja: '{field}は整数で指定してください。' },
  'validation.isNumber': { en: '{field} must be a number', ja: '{field}は数値で指定してください。' },
  'validation.min': { en: '{field} must be at least {min}', ja: '{field}は{min}以上の数で指定してください。' },
  'validation.max': { en: '{field} must be at most {max}', ja: '{field}は{max}以下の数で指定してください。' },
  'validation.isBoolean': { en: '{field} must be true or false', ja: '{field}は true か false で指定してください。' },
  'validation.isIn': { en: '{field} must be one of: {values}', ja: '{field}は次のいずれかで指定してください：{values}。' },
  'validation.isArray': { en: '{field} must be a list', ja: '{field}はリスト（配列）で指定してください。' },
  'validation.arrayMinSize': { en: '{field} must contain at least {min} item(s)', ja: '{field}は{min}件以上指定してください。' },
  'validation.arrayMaxSize': { en: '{field} may contain at most {max} items', ja: '{field}は一度に{max}件までです。' },
  'validation.eachObject': { en: '{field} must be an object (item {position} of the list)', ja: '{field}の{position}件目はオブジェクトで指定してください。' },
  'validation.nestedValidation': { en: '{field} must contain objects', ja: '{field}の各項目はオブジェクトで指定してください。' },
  'validation.unknownValue': { en: 'The parameters are invalid', ja: 'パラメーターの形式が正しくありません。' },
  'validation.positiveInteger': { en: '{field} must be a positive integer', ja: '{field}は 1 以上の整数で指定してください。' },
  'validation.characters': {
    en: '{field} contains a character that cannot be stored (an unpaired surrogate, or a noncharacter such as U+FFFE or U+FFFF)',
    ja: '{field}に保存できない文字（対になっていないサロゲートや U+FFFF などの非文字）が含まれています。入力し直してください。',
  },
  'validation.anyUuid': { en: '{field} must be a game UUID, with or without hyphens', ja: '{field}はゲーム UUID（ハイフンの有無は問いません）で指定してください。' },
  'validation.recordKinds': { en: '{field} must be record kinds (gban, lban, vban, eban, chatban, jail), comma-separated', ja: '{field}は記録の種類（gban・lban・vban・eban・chatban・jail）をカンマ区切りで指定してください。' },
  'validation.recordId': { en: '{field} must be a record id (letters, digits, - and _, up to 40)', ja: '{field}は記録の ID（英数字・-・_、40 文字まで）で指定してください。' },
  'validation.evidenceName': { en: "{field} must be an evidence picture's name", ja: '{field}には証拠画像の名前を指定してください。' },
  'validation.cursor': { en: '{field} must be the nextCursor of a previous page', ja: '{field}には前のページの nextCursor をそのまま指定してください。' },
  'validation.uuid': { en: '{field} must be a game UUID with hyphens', ja: '{field}はハイフン付きのゲーム UUID で指定してください。' },
  'validation.mcid': { en: '{field} must be 1-16 letters, digits or underscores', ja: '{field}は英数字とアンダースコアの 1〜16 文字で指定してください。' },
  'validation.chatid': { en: '{field} must be 17 to 20 digits', ja: '{field}は 17〜20 桁の数字で指定してください。' },
  'validation.senderId': { en: "{field} must be the sender's id: 1 to 64 printable ASCII characters without spaces", ja: '{field}は送信側の ID（空白を含まない半角英数記号 1〜64 文字）で指定してください。' },
  'validation.discriminator': { en: '{field} must be up to 4 digits ("0" for none)', ja: '{field}は 4 桁までの数字（ない場合は "0"）で指定してください。' },
  'validation.webUrl': { en: '{field} must be an http or https URL of at most 512 characters', ja: '{field}は http または https で始まる 512 文字以内の URL で指定してください。' },
  'validation.twitterId': { en: '{field} must be 1-64 characters without spaces', ja: '{field}は空白を含まない 1〜64 文字で指定してください。' },
  'validation.githubId': { en: '{field} must be a GitHub login: letters, digits and single inner hyphens, at most 39 characters', ja: '{field}は GitHub のユーザー名（英数字と間のハイフン、39 文字以内）で指定してください。' },
  'validation.username': { en: '{field} must be a game id or a game UUID with hyphens', ja: '{field}にはゲーム ID（MCID）かハイフン付きの UUID を入力してください。' },
  'validation.cityIdOrUuid': { en: '{field} must be a city id or a game UUID with hyphens', ja: '{field}には自治体 ID（数字）かハイフン付きのゲーム UUID を指定してください。' },
  'validation.timestamp': { en: '{field} must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-22T03:04:05.000Z', ja: '{field}はタイムゾーン付きの ISO 8601 形式（例：2026-11-22T03:04:05.000Z）で指定してください。' },
  'validation.cornersList': { en: '{field} must be an array of {id, x, z} objects', ja: '{field}は {id, x, z} の形の角のリストで指定してください。' },
  // Input edges (what a column stores on both databases): one block, kept together.
  'validation.timeColumn': {
    en: '{field} must be a time from 1000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z (UTC)',
    ja: '{field}は 1000-01-01T00:00:00.000Z から 9999-12-31T23:59:59.999Z（UTC）までの日時で指定してください。',
  },

  // ── Credentials ─────────────────────────────────────────────────────────────────────────────
  'auth.apiKeyRequired': { en: 'An API key with scope "{scope}" is required (X-API-Key header or apikey parameter).', ja: 'この操作には「{scope}」権限の API キーが必要です。' },
  'auth.apiKeyUnknown': { en: 'The API key is unknown or was revoked.', ja: 'API キーが正しくないか、無効化されています。' },
  'auth.apiKeyScope': { en: 'The API key lacks the "{scope}" scope.', ja: 'この API キーには「{scope}」権限がありません。' },
  'auth.operatorOrAdminRequired': { en: 'An operator API key or the user token of a club admin is required.', ja: 'この操作は運営者またはクラブ管理者がログインして行ってください。' },
  'auth.operatorOrAdminOnly': { en: 'Only club admins and operators may do this.', ja: 'この操作ができるのはクラブ管理者と運営者だけです。' },
  'auth.tokenRequired': { en: 'A user token is required (usertoken parameter or Authorization: Bearer).', ja: 'ログインしてください。' },
  'auth.tokenInvalid': { en: 'The user token is invalid.', ja: 'ログイン情報が正しくありません。もう一度ログインしてください。' },
  'auth.tokenLoggedOut': { en: 'The user token was logged out; sign in again.', ja: 'ログアウト済みです。もう一度ログインしてください。' },
  'auth.tokenSuperseded': { en: 'The user token was superseded by a newer token for this account; use the newest one.', ja: '別の場所で新しくログインしたため、このログインは無効になりました。もう一度ログインしてください。' },
  'auth.tokenExpired': { en: 'The user token has expired; sign in again.', ja: 'ログインの有効期限が切れました。もう一度ログインしてください。' },
  'auth.consoleSessionRequired': { en: 'Sign in to the console first: an operator API key (X-API-Key) or a club admin\'s user token (Authorization: Bearer) is required.', ja: '管理画面にログインしてください（運営者の API キー、またはクラブ管理者のログインが必要です）。' },
  'auth.consoleSessionEnded': { en: 'The console session has ended (signed out, idle too long, past its maximum age, or its credential is no longer valid); sign in again.', ja: '管理画面のログインが終了しました（ログアウト、長時間の無操作、有効期限切れ、または権限の取り消し）。もう一度ログインしてください。' },
  'auth.consoleCsrf': { en: 'The X-CSRF-Token header is missing or does not match this console session.', ja: '安全確認用のトークンがないか、一致しません。ページを再読み込みしてもう一度お試しください。' },
  'auth.consoleOrigin': { en: 'A console session may only be used from this server\'s own pages (the Origin does not match).', ja: 'この操作は、このサーバーの管理画面からのみ行えます。' },
  'userKey.invalid': { en: 'The user key is invalid; get a new one with /getuserkey in game.', ja: 'ユーザーキーが正しくありません。ゲーム内で /getuserkey を実行して新しいキーを取得してください。' },
  'userKey.replaced': { en: 'The user key is invalid or was replaced; get a new one with /getuserkey in game.', ja: 'ユーザーキーが正しくないか、新しいキーに置き換えられています。ゲーム内で /getuserkey を実行して新しいキーを取得してください。' },
  'userKey.used': { en: 'The user key was already used; get a new one with /getuserkey in game.', ja: 'このユーザーキーはすでに使われています。ゲーム内で /getuserkey を実行して新しいキーを取得してください。' },
  'userKey.expired': { en: 'The user key has expired; get a new one with /getuserkey in game.', ja: 'ユーザーキーの有効期限が切れました。ゲーム内で /getuserkey を実行して新しいキーを取得してください。' },
  'captcha.failed': { en: 'The CAPTCHA verification failed.', ja: 'ロボットでないことの確認（CAPTCHA）に失敗しました。もう一度お試しください。' },
  'captcha.lowScore': { en: 'The CAPTCHA score is too low.', ja: 'ロボットでないことを確認できませんでした。時間をおいてもう一度お試しください。' },
  'captcha.wrongHostname': { en: 'The CAPTCHA was solved on another site.', ja: 'CAPTCHA が別のサイトで解かれています。このページでもう一度お試しください。' },
  'captcha.wrongAction': { en: 'The CAPTCHA was solved for another action.', ja: 'CAPTCHA が別の操作のために解かれています。もう一度お試しください。' },
  'captcha.unreachable': { en: 'The CAPTCHA provider could not be reached; try again shortly.', ja: 'CAPTCHA の確認サービスに接続できませんでした。しばらくしてからもう一度お試しください。' },
  'limits.tooManyFailures': { en: 'Too many failed attempts. Try again in {seconds} s.', ja: '失敗が続いたため、一時的にロックしています。{seconds} 秒後にもう一度お試しください。' },
  'limits.accountSlowedDown': {
    en: 'Too many failed attempts for this account; attempts are slowed down. Try again in {seconds} s.',
    ja: 'このアカウントへのログイン失敗が続いているため、しばらく間隔を空けていただいています。{seconds} 秒後にもう一度お試しください。',
  },
  'limits.tooManyRequests': { en: 'Too many requests from this address. Try again in {seconds} s.', ja: 'アクセスが多すぎます。{seconds} 秒後にもう一度お試しください。' },
  'limits.tooManySignIns': { en: 'Too many sign-ins to this account. Try again in {seconds} s.', ja: 'このアカウントへのログインが多すぎます。{seconds} 秒後にもう一度お試しください。' },
  'limits.queueShare': {
    en: 'Too many password checks from this account or address are already waiting. Try again in {seconds} s.',
    ja: 'このアカウントまたは接続元からの処理がすでに多数待っています。{seconds} 秒後にもう一度お試しください。',
  },

  // ── Club accounts ───────────────────────────────────────────────────────────────────────────
  'club.wrongCredentials': { en: 'The username or password is wrong.', ja: 'ユーザー名またはパスワードが間違っています。' },
  'club.wrongPassword': { en: 'The password is wrong.', ja: 'パスワードが間違っています。' },
  'club.noAccountForKey': {
    en: "The user key's player has no club account; register instead.",
    ja: 'このユーザーキーのプレイヤーにはまだクラブのアカウントがありません。新規登録をしてください。',
  },
  'club.accountExists': { en: 'A club account already exists for this player; sign in instead.', ja: 'このプレイヤーのアカウントはすでにあります。ログインしてください。' },
  'club.usernameMismatch': { en: "username does not name the user key's player", ja: 'ユーザー名が、ユーザーキーを取得したプレイヤーと一致しません。' },
  'club.nickname.control': { en: 'nickname must not contain control characters', ja: 'ニックネームに使えない文字（制御文字）が含まれています。' },
  'club.nickname.empty': { en: 'nickname must not be empty', ja: 'ニックネームを入力してください。' },
  'club.nickname.tooLong': { en: 'nickname must be at most {max} characters', ja: 'ニックネームは{max}文字以内で入力してください。' },

  // ── Cities ──────────────────────────────────────────────────────────────────────────────────
  'cities.noMatch': { en: 'No registered city matches.', ja: '該当する自治体は登録されていません。' },
  'cities.notFound': { en: 'There is no registered city {id}.', ja: 'ID {id} の自治体は登録されていません。' },
  'cities.noCity': { en: 'There is no city {id}.', ja: 'ID {id} の自治体はありません。' },
  // ── Maps and the console ──
  'maps.bboxFormat': { en: 'bbox must be four integers x1,z1,x2,z2.', ja: '表示範囲（bbox）は x1,z1,x2,z2 の 4 つの整数で指定してください。' },
  'maps.bboxTooLarge': { en: 'bbox may span at most {max} blocks on a side.', ja: '表示範囲（bbox）の一辺は {max} ブロックまでにしてください。' },
  'console.notBuilt': { en: 'The console is not built on this server; run npm run build.', ja: 'このサーバーでは管理画面がまだビルドされていません。npm run build を実行してください。' },
  'cities.noPendingOfType': { en: 'City {id} has no pending {type} request.', ja: '自治体 {id} に審査待ちの{type}申請はありません。' },
  'cities.noPendingRequest': { en: 'There is no pending {type} request {requestId}.', ja: '審査待ちの{type}申請（申請 ID {requestId}）はありません。' },
  'cities.pendingExists': { en: 'City {id} already has a pending {type} request.', ja: '自治体 {id} にはすでに審査待ちの{type}申請があります。審査が終わるまでお待ちください。' },
  'cities.pendingOfTypeExists': { en: 'The city already has a pending request of this type.', ja: 'この自治体にはすでに同じ種類の審査待ちの申請があります。' },
  'cities.editForbidden': { en: 'Only the city administrator or a club admin may update this city.', ja: 'この自治体を編集できるのは、自治体の管理者とクラブ管理者だけです。' },
  'cities.ownerLimit': { en: 'The requester already administers {max} cities (pending requests included).', ja: '管理できる自治体は{max}件までです（審査待ちの申請を含みます）。' },
  'cities.nameTaken': { en: 'The city name is already taken.', ja: 'この自治体名はすでに使われています。' },
  'cities.nameTaken.detail': { en: 'cityName is already used by another city or a pending request', ja: 'この自治体名は、ほかの自治体か審査待ちの申請ですでに使われています。' },
  'cities.kanaTaken': { en: 'The kana reading is already taken.', ja: 'この読みがなはすでに使われています。' },
  'cities.kanaTaken.detail': { en: 'cityNameKana is already used by another city or a pending request', ja: 'この読みがなは、ほかの自治体か審査待ちの申請ですでに使われています。' },
  'cities.regionTaken': { en: 'The region overlaps another city.', ja: '指定した区域がほかの自治体と重なっています。' },
  'cities.regionTaken.detail': { en: 'corners overlap a registered city or a pending request', ja: '区域が、登録済みの自治体か審査待ちの申請の区域と重なっています。' },
  'cities.name.length': { en: '{field} must be 1 to {max} characters after trimming', ja: '{field}は 1〜{max} 文字で入力してください（前後の空白は数えません）。' },
  'cities.name.control': { en: '{field} must not contain control or format characters', ja: '{field}に使えない文字（制御文字など）が含まれています。' },
  'cities.name.tooLongNormalised': { en: '{field} is too long after normalisation', ja: '{field}が長すぎます。短くしてください。' },
  'cities.kana.characters': { en: 'cityNameKana must contain only hiragana, katakana, ー, ・ and spaces', ja: '読みがなは、ひらがな・カタカナ・「ー」「・」・空白だけで入力してください。' },
  'cities.corners.requiredWithCount': { en: 'corners is required with count', ja: 'ブロック数を指定するときは、区域の角も指定してください。' },
  'cities.count.requiredWithCorners': { en: 'count is required with corners', ja: '区域の角を指定するときは、ブロック数も指定してください。' },
  'cities.count.mismatch': { en: 'count must equal the blocks the corners cover: {computed}', ja: 'ブロック数が区域と一致しません。この区域のブロック数は {computed} です。' },
  'cities.count.overMax': { en: 'A city may cover at most {max} blocks; these corners cover {computed}', ja: '自治体の区域は最大 {max} ブロックまでです（指定の区域は {computed} ブロック）。' },
  'cities.reason.required': { en: 'reason is required for more than {limit} blocks', ja: '{limit} ブロックを超える区域には、理由の記入が必要です。' },
  'cities.corners.alone': { en: 'corners must be sent alone, not with {fields}', ja: '区域の変更は、{fields}の変更とは別に申請してください。' },
  'cities.edit.onlyWithCorners': { en: '{field} comes only with corners', ja: '{field}は区域（角）を変更するときだけ指定できます。' },
  'cities.edit.nothing': { en: 'Give at least one change: cityName, cityNameKana, summary, origin, regionName or corners.', ja: '変更する項目を 1 つ以上入力してください。' },
  'cities.edit.nothing.detail': { en: 'at least one of cityName, cityNameKana, summary, origin, regionName, corners is required', ja: '自治体名・読みがな・概要・名前の由来・地域名・区域のどれかを変更してください。' },
  'cities.edit.unchanged': { en: "Nothing to change: every field equals the city's current value.", ja: '変更された項目がありません。いまの内容と同じです。変えたい項目を書き換えてから送ってください。' },
  'cities.regionName.format': { en: 'regionName must be 1 to 32 characters of a-z, 0-9, _ and -', ja: '地域名は半角の英小文字・数字・「_」「-」で 1〜32 文字にしてください（大文字は小文字として保存します）。' },
  'cities.regionNameTaken': { en: 'The region name is already taken.', ja: 'この地域名はすでに使われています。' },
  'cities.regionNameTaken.detail': { en: 'regionName is already used by another city or a pending request', ja: 'この地域名は、ほかの自治体か審査待ちの申請ですでに使われています。' },
  'cities.ownRequest': { en: 'You filed this request yourself: another admin or an operator must decide it.', ja: 'ご自身が出した申請は審査できません。ほかのクラブ管理者か運営者に審査を依頼してください。' },
  'cities.noRequest': { en: 'There is no request {requestId}.', ja: '申請 ID {requestId} の申請はありません。' },
  'cities.noPendingRequestId': { en: 'There is no pending request {requestId}.', ja: '申請 ID {requestId} の審査待ちの申請はありません。' },
  'cities.withdraw.notYours': { en: 'Only the player who filed a request may withdraw it.', ja: '申請を取り下げられるのは、申請したご本人だけです。' },
  'cities.withdraw.notPending': { en: 'Request {requestId} is no longer pending.', ja: '申請 ID {requestId} はすでに審査が終わっているため、取り下げられません。' },
  'cities.corners.notList': { en: 'corners must be an array of {id, x, z} objects', ja: '区域の角は {id, x, z} の形のリストで指定してください。' },
  'cities.corners.tooFew': { en: 'corners needs at least 4 corners', ja: '区域には角が 4 つ以上必要です。' },
  'cities.corners.tooMany': { en: 'corners may have at most {max} corners', ja: '区域の角は {max} 個までです。' },
  'cities.corners.notObject': { en: 'corner {corner} must be an object {id, x, z}', ja: '{corner} 番目の角は {id, x, z} の形で指定してください。' },
  'cities.corners.idOrder': { en: 'corner ids must be 1..n in order; corner {corner} has id {id}', ja: '角の id は 1 から順に振ってください（{corner} 番目の角の id が {id} になっています）。' },
  'cities.corners.integer': { en: 'corner {corner} must have integer x and z (numbers or integer strings)', ja: '{corner} 番目の角の x と z は整数で指定してください。' },
  'cities.corners.outside': { en: 'corner {corner} is outside ±{max}', ja: '{corner} 番目の角が範囲外です（±{max} まで）。' },
  'cities.corners.odd': { en: 'a rectilinear polygon has an even number of corners', ja: '区域は縦横の辺だけでできた形にしてください（角の数は偶数になります）。' },
  'cities.corners.diagonal': { en: 'corners {a} and {b} must differ in exactly one of x and z', ja: '{a} 番目と {b} 番目の角は、x と z のどちらか一方だけが異なるようにしてください（斜めの辺は使えません）。' },
  'cities.corners.straight': { en: 'edges must alternate between x and z; the edge from corner {corner} continues in the same direction', ja: '辺は縦と横を交互にしてください（{corner} 番目の角から同じ向きの辺が続いています）。' },
  'cities.corners.closingStraight': { en: 'edges must alternate between x and z; the closing edge continues in the same direction as the first', ja: '辺は縦と横を交互にしてください（最後の辺と最初の辺が同じ向きです）。' },
  'cities.corners.crossing': { en: 'the edges from corners {a} and {b} cross or touch; the polygon must be simple', ja: '{a} 番目と {b} 番目の角から出る辺が交差または接しています。辺が交わらない形にしてください。' },
  'cities.create.userKeyRequired': { en: 'A user key (usertoken) is required; get one with /getuserkey in game.', ja: 'ユーザーキーが必要です。ゲーム内で /getuserkey を実行して取得してください。' },
  'cities.create.badToken': { en: 'The usertoken is neither a user key nor a club user token.', ja: 'ユーザーキーまたはログイン情報が正しくありません。' },
  'cities.create.forceNeedsKey': { en: 'force=true needs an operator API key (X-API-Key header or apikey parameter).', ja: '即時登録（force）には運営者の API キーが必要です。' },
  'cities.create.forceScope': { en: 'The API key lacks the "operator" scope needed for force=true.', ja: 'この API キーには即時登録（force）に必要な「operator」権限がありません。' },

  // ── Players, game server, ban list, operations ──────────────────────────────────────────────
  'site.userNotFound': { en: 'User not found.', ja: 'プレイヤーが見つかりません。' },
  'evidence.empty': { en: 'The picture is empty: send the image file as the request body.', ja: '画像が空です。画像ファイルをそのまま送ってください。' },
  'evidence.tooLarge': { en: 'The picture is larger than {max} MiB.', ja: '画像が大きすぎます（{max} MiB まで）。' },
  'evidence.unsupportedType': { en: 'The file is not a PNG, JPEG, WebP or GIF picture (SVG is not taken).', ja: 'PNG・JPEG・WebP・GIF の画像だけを添付できます（SVG は使えません）。' },
  'evidence.undecodable': { en: 'The picture cannot be read: the file is truncated or damaged.', ja: '画像を読み込めません。ファイルが途中で切れているか、壊れています。' },
  'evidence.tooManyPixels': { en: 'The picture has more than {max} pixels (all frames counted).', ja: '画像の画素数が多すぎます（全フレームで {max} 画素まで）。' },
  'bans.recordNotFound': { en: 'No such ban record.', ja: 'その BAN の記録は見つかりません。' },
  'evidence.notFound': { en: 'No evidence picture of that name.', ja: 'その名前の証拠画像は見つかりません。' },
  'users.notFoundByUuid': { en: 'No player with uuid {uuid}; send a login or issue a user key first.', ja: 'UUID {uuid} のプレイヤーは見つかりません。' },
  'users.notFound': { en: 'No player with {field} {value}.', ja: '{field}が {value} のプレイヤーは見つかりませんでした。' },
  'users.chatidTaken': { en: 'Chat id {chatid} is linked to another player; unlink it there first.', ja: 'チャット ID {chatid} はほかのプレイヤーと連携済みです。先にそちらの連携を解除してください。' },
  'users.chatidTaken.detail': { en: 'chatid belongs to another player', ja: 'このチャット ID はほかのプレイヤーと連携済みです。' },
  'users.identifierRequired': { en: 'one of uuid, chatid or mcid is required', ja: 'UUID・チャット ID・ゲーム ID のどれかを指定してください。' },
  'users.pathIdentifier': { en: 'the path must be a game UUID, a chat id (17-20 digits) or a game id', ja: 'URL にはゲーム UUID・チャット ID（17〜20 桁）・ゲーム ID のどれかを指定してください。' },
  'achievements.duplicate': { en: 'achievement id {id} is given more than once', ja: '実績 ID {id} が複数回指定されています。' },
  'achievements.unknown': { en: 'unknown achievement ids: {ids}; define them first with PUT /game-server/achievements', ja: '未定義の実績 ID があります（{ids}）。先に PUT /game-server/achievements で定義してください。' },
  'punishments.unknown': { en: '{field} names no stored {kind} punishment; report it as issued first', ja: '{field}に該当する {kind} の処罰は記録されていません。先に処罰の記録を送ってください。' },
  'punishments.testmentJailOnly': { en: '{field} is for jail only', ja: '{field}は jail の処罰にだけ指定できます。' },
  'punishments.liftTarget': { en: '{field} must give exactly one of id and punishmentId', ja: '{field}には id と punishmentId のどちらか一方だけを指定してください。' },
  'moderation.recordNotFound': { en: 'No {kind} record with id {id}.', ja: '種類 {kind}、ID {id} の記録は見つかりませんでした。' },
  'moderation.playerNotFound': { en: 'No player with uuid {uuid}.', ja: 'UUID {uuid} のプレイヤーは見つかりませんでした。' },
  'moderation.badCursor': { en: '{field} is not a cursor of this list; start again without it', ja: '{field}が正しくありません。最初のページから読み直してください。' },
  'moderation.alreadyLifted': { en: 'The {kind} record {id} is lifted already.', ja: '{kind} の記録 {id} はすでに解除されています。' },
  'moderation.liftOnBanlist': { en: 'A {kind} record is lifted on the ban-list service, not here.', ja: '{kind} の記録は BAN リストのサービスで解除してください。ここでは解除できません。' },
  'moderation.evidenceNotFound': { en: 'The record has no evidence picture named {name}.', ja: 'この記録に {name} という証拠画像はありません。' },
  'moderation.evidenceContentType': {
    en: 'Send the picture itself as the body, with Content-Type image/png, image/jpeg, image/webp or image/gif.',
    ja: '画像そのものを本文として、Content-Type を image/png・image/jpeg・image/webp・image/gif のいずれかにして送ってください。',
  },
  'playTime.beforeStart': { en: '{field} must not be before startedAt', ja: '{field}は開始日時より前にはできません。' },
  'playTime.beforeLastActive': { en: '{field} must not be before lastActiveAt', ja: '{field}は最終活動日時より前にはできません。' },
  'playTime.tooLong': { en: '{field} is more than {days} days after startedAt; a session that long is not counted', ja: '{field}が開始日時から{days}日を超えています。そこまで長いセッションは記録できません。' },
  'playTime.future': { en: '{field} is in the future', ja: '{field}が未来の日時になっています。' },
  'playTime.sessionConflict': { en: 'this session id was reported before for another player or another start time', ja: 'このセッション ID は、別のプレイヤーまたは別の開始日時ですでに報告されています。' },
  'banlist.playerNotSynced': { en: 'No ban-list data for player {uuid}: the player was never synced.', ja: 'プレイヤー {uuid} の BAN 情報はまだ取得されていません。' },
  'banlist.banNotFound': { en: 'No ban {banId} in the ban-list mirror.', ja: 'BAN ID {banId} は見つかりませんでした。' },
  'banlist.syncOff': { en: 'The ban-list sync is off: BANLIST_SOURCE_URL is not set.', ja: 'BAN リストの同期は無効になっています（BANLIST_SOURCE_URL が未設定です）。' },
  'banlist.syncRunning': { en: 'A ban-list sync is already in progress.', ja: 'BAN リストの同期はすでに実行中です。終わるまでお待ちください。' },
  'health.databaseUnreachable': { en: 'The database is unreachable.', ja: 'データベースに接続できません。' },
  'metrics.tokenRequired': { en: 'The metrics need Authorization: Bearer <METRICS_TOKEN>.', ja: 'メトリクスの取得には Authorization: Bearer <METRICS_TOKEN> が必要です。' },
  'metrics.loopbackOnly': {
    en: 'The metrics are served only to a direct loopback client unless METRICS_TOKEN is set.',
    ja: 'METRICS_TOKEN が設定されていないため、メトリクスは同じマシンから直接アクセスした場合にのみ取得できます。',
  },
  'server.busy': { en: 'The server is busy; try again in a moment.', ja: '現在混み合っています。少し待ってからもう一度お試しください。' },
  'database.unavailable': { en: 'The database is unavailable; try again shortly.', ja: '現在データを読み書きできません。しばらくしてからもう一度お試しください。' },

  // ── Events and webhooks ─────────────────────────────────────────────────────
  'validation.eventTypes': { en: '{field} must be a non-empty list of event types or ["*"]', ja: '{field}はイベントの種類のリスト、またはすべてを表す ["*"] で指定してください。' },
  'validation.deliveryId': { en: '{field} must be a delivery id (a UUID)', ja: '{field}は配信 ID（UUID 形式）で指定してください。' },
  'events.tooManyWaitersForKey': {
    en: 'This API key already has {share} long-polls waiting on this server; try again in {seconds} s (each game server should have a key of its own).',
    ja: 'この API キーで待機中の接続が上限（{share} 件）に達しています。{seconds} 秒後にもう一度お試しください（ゲームサーバーごとに別のキーをお使いください）。',
  },
  'events.tooManyWaitersForAddress': {
    en: 'This address already has {share} long-polls waiting on this server; try again in {seconds} s.',
    ja: 'この接続元で待機中の接続が上限（{share} 件）に達しています。{seconds} 秒後にもう一度お試しください。',
  },
  'events.tooManyWaiters': { en: 'Too many clients are waiting for events on this server; try again shortly.', ja: 'イベントを待っている接続が多すぎます。しばらくしてからもう一度お試しください。' },
  'webhooks.notFound': { en: 'There is no webhook {id}.', ja: 'ID {id} の Webhook はありません。' },
  'webhooks.deliveryNotFound': { en: 'Webhook {id} has no delivery {deliveryId}.', ja: 'Webhook {id} に配信 {deliveryId} はありません。' },
  'webhooks.deliveryQueued': { en: 'Delivery {deliveryId} is still queued; it is retried on its own.', ja: '配信 {deliveryId} はまだ送信待ちです。自動で再送されるので、そのままお待ちください。' },
  'webhooks.eventGone': { en: 'The event of delivery {deliveryId} is no longer kept.', ja: '配信 {deliveryId} のイベントは保存期間を過ぎたため、再送できません。' },
  'webhooks.nothingToChange': { en: 'Give at least one of active, events, url.', ja: '変更する項目（active・events・url）を 1 つ以上指定してください。' },
  'webhooks.nothingToChange.detail': { en: 'one of active, events, url is required', ja: 'active・events・url のどれかを指定してください。' },
  'webhooks.url.invalid': { en: 'url must be an absolute http or https URL without a user name or password', ja: 'URL は http:// か https:// で始まる完全な形で指定してください（ユーザー名やパスワードは含められません）。' },
  'webhooks.url.unresolvable': { en: 'url is not allowed: the host name {host} does not resolve', ja: 'URL のホスト名 {host} が見つかりません。' },
  'webhooks.url.private': {
    en: 'url is not allowed: {host} resolves to a loopback, private, link-local or other non-public address (a receiver on this host or network needs WEBHOOK_ALLOW_PRIVATE=true)',
    ja: 'URL のホスト {host} は内部向けのアドレス（ループバック・プライベート・リンクローカルなど）を指しているため、使えません。同じホストや社内ネットワークの受信先に送るには、サーバーの設定で WEBHOOK_ALLOW_PRIVATE=true にしてください。',
  },
} as const satisfies Record<string, CatalogueEntry>;

/** Japanese labels of parameter names, shown where a Japanese sentence says `{field}`. */
export const fieldLabels: Readonly<Record<string, string>> = {
  accounts: 'チャットアカウントの一覧',
  achievementId: '実績 ID',
  achievements: '実績の一覧',
  active: '有効・停止（active）',
  active_only: '有効な記録だけ（active_only）',
  after: '開始位置（after）',
  all_items: 'すべての記録（all_items）',
  apikey: 'API キー',
  at: '日時',
  away: '離席時間の記録',
  avatarUrl: 'アイコンの URL',
  banId: 'BAN ID',
  bbox: '表示範囲（bbox）',
  calcMatchTime: '計測時間（calcMatchTime）',
  chatid: 'チャット ID',
  cityId: '自治体 ID',
  cityName: '自治体名',
  cityNameKana: '読みがな',
  corners: '区域の角',
  count: 'ブロック数',
  deliveryId: '配信 ID',
  description: '説明',
  endTime: '終了日時',
  endedAt: '終了日時',
  discriminator: '識別番号（discriminator）',
  events: 'イベントの種類（events）',
  failure: '失敗回数',
  expiresAt: '終了日時',
  force: '即時登録（force）',
  format: '形式（format）',
  group: '権限グループ',
  groupChanges: '権限グループの変更',
  githubId: 'GitHub ID',
  hidden: '非表示',
  homeUrl: 'ホームページの URL',
  id: 'ID',
  identifier: 'プレイヤーの指定',
  issuedAt: '処罰日時',
  issuedBy: '処罰した人',
  kind: '処罰の種類',
  liftedAt: '解除日時',
  lifts: '処罰の解除記録',
  lastActiveAt: '最終活動日時',
  limit: '件数（limit）',
  links: 'プロフィールリンクの一覧',
  loggedInAt: 'ログイン日時',
  logins: 'ログイン記録',
  matchTime: '目標時間（matchTime）',
  loginTexts: 'ログインメッセージの変更',
  mainChatid: 'メインアカウントのチャット ID',
  mcid: 'ゲーム ID',
  name: '名前',
  newPassword: '新しいパスワード',
  nickname: 'ニックネーム',
  origin: '名前の由来',
  player: 'プレイヤー',
  password: 'パスワード',
  permission: '権限',
  punishmentId: '処罰 ID',
  punishments: '処罰の記録',
  realMatchTime: '実時間（realMatchTime）',
  reason: '理由',
  recaptcha: 'CAPTCHA',
  regionName: '地域名',
  registeredAt: '登録日時',
  remarks: '備考',
  reportedAt: '確認日時',
  requestId: '申請 ID',
  results: 'ミニゲームの結果',
  startTime: '開始日時',
  seconds: '秒数',
  server: 'サーバー名',
  serverStartedAt: 'サーバーの起動日時',
  sessions: 'プレイセッション',
  startedAt: '開始日時',
  site: '投票サイト',
  secondAccounts: 'サブアカウントの一覧',
  status: '状態',
  success: '成功回数',
  summary: '概要',
  testment: '遺言（testment）',
  text: 'テキスト',
  title: 'タイトル',
  twitterId: 'Twitter ID',
  type: '申請の種類',
  unlockedAt: '解除日時',
  unlocks: '実績の解除記録',
  url: 'URL',
  userkey: 'ユーザーキー',
  username: 'ユーザー名',
  usertoken: 'ログイン情報（usertoken）',
  uuid: 'UUID',
  user_recaptcha: 'CAPTCHA',
  verificationCode: '認証コード',
  votedAt: '投票日時',
  votes: '投票記録',
  wait: '待ち時間（wait）',
  x: 'x 座標',
  z: 'z 座標',
  q: '検索語（q）',
  state: '状態（state）',
  issuer: '処罰した人（issuer）',
  from: '開始日時（from）',
  to: '終了日時（to）',
  cursor: '続きの位置（cursor）',
  note: 'メモ',
};

/** Japanese names of request types, shown where a Japanese sentence says `{type}`. */
export const requestTypeLabels: Readonly<Record<string, string>> = {
  create: '新規登録',
  update: '情報変更',
  region: '区域変更',
};

export type MessageKey = keyof typeof messages;

// `{id, x, z}` (with spaces or commas) is literal text, not a placeholder.
type PlaceholderName<N extends string> = N extends `${string}${' ' | ','}${string}` ? never : N;
type Placeholders<S extends string> = S extends `${string}{${infer Name}}${infer Rest}` ? PlaceholderName<Name> | Placeholders<Rest> : never;
/** The placeholders of an entry (read from its English text; the unit test keeps Japanese in step). */
export type MessageParamName<K extends MessageKey> = Placeholders<(typeof messages)[K]['en']>;
export type ParamValue = string | number | readonly (string | number)[];
export type MessageParams<K extends MessageKey> = { readonly [P in MessageParamName<K>]: ParamValue };
/** Keys whose sentences have no placeholder: usable without `msg()`. */
export type PlainMessageKey = { [K in MessageKey]: [MessageParamName<K>] extends [never] ? K : never }[MessageKey];
type ParamsArg<K extends MessageKey> = [MessageParamName<K>] extends [never] ? [] : [params: MessageParams<K>];

/** A message rendered in both languages. */
export interface LocalizedText {
  readonly key: MessageKey;
  readonly en: string;
  readonly ja: string;
}

/** `{id, x, z}` in a sentence is literal text, not a placeholder: only simple names are. */
const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9_]*)\}/g;

function labelFor(value: string | number, labels: Readonly<Record<string, string>>): string {
  const text = String(value);
  // Nested parameters (`logins.0.uuid`) are labelled by their own name.
  const name = text.split('.').filter((part) => !/^\d+$/.test(part)).pop() ?? text;
  return labels[name] ?? labels[text] ?? text;
}

function renderValue(name: string, value: ParamValue, language: 'en' | 'ja'): string {
  const values: readonly (string | number)[] = Array.isArray(value) ? (value as readonly (string | number)[]) : [value as string | number];
  if (language === 'en') {
    return values.join(', ');
  }
  const labels = name === 'field' || name === 'fields' ? fieldLabels : name === 'type' ? requestTypeLabels : undefined;
  return values.map((entry) => (labels ? labelFor(entry, labels) : String(entry))).join('、');
}

/** Fills a catalogue sentence. Unknown placeholders stay as written (the unit test forbids them). */
export function render(template: string, params: Readonly<Record<string, ParamValue>>, language: 'en' | 'ja'): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (name in params ? renderValue(name, params[name], language) : whole));
}

/** The placeholder names a sentence uses. */
export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((match) => match[1]))].sort();
}

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(messages, value);
}

/** Renders an entry with runtime-checked parameters (the validation pipe's path: names known only at run time). */
export function textOf(key: MessageKey, params: Readonly<Record<string, ParamValue>> = {}): LocalizedText {
  const entry: CatalogueEntry = messages[key];
  return { key, en: render(entry.en, params, 'en'), ja: render(entry.ja, params, 'ja') };
}

/** A catalogue message in both languages: `msg('cities.notFound', { id: 12 })`. */
export function msg<K extends MessageKey>(key: K, ...args: ParamsArg<K>): LocalizedText {
  const [params] = args as [Readonly<Record<string, ParamValue>>?];
  return textOf(key, params ?? {});
}

/** The credential errors of every moderation route (OpenAPI). */
export const OPERATOR_ERRORS: Array<[number, string]> = [
  [401, 'No credential, or an unknown API key, user token or console session.'],
  [403, 'An API key without the operator scope, or a non-admin.'],
];

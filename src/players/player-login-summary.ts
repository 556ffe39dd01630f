/**
 * What a batch of logins tells about one player: the earliest login and the latest one (whose
 * name and permission win). The login batches (src/users/) build it; `players` is kept in step
 * from it. Plain type, so player data knows nothing of the features that feed it.
 */
export interface PlayerLoginSummary {
  uuid: string;
  firstLogin: Date;
  latest: { mcid: string; loggedInAt: Date; permission: string | null };
}

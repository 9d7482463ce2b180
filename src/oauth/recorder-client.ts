/**
 * The recorder browser extension's OAuth client. It is built into every instance (a row with no workspace,
 * added by migration 0018) so that the extension can sign in anywhere without anyone registering an app: it
 * is public (PKCE, no secret), and a member of any workspace may authorise it for the workspace they are
 * signed in to. Its redirect addresses are those of the extension builds the instance trusts.
 */
export const RECORDER_CLIENT_ID = 'demoshare-recorder';

/** The page of the extension that receives the authorization code (listed in its web_accessible_resources). */
export const RECORDER_CALLBACK_PATH = '/oauth-callback.html';

/** The redirect addresses of the recorder builds with these extension ids (RECORDER_EXTENSION_IDS). */
export function recorderRedirectUris(extensionIds: readonly string[]): string[] {
  return extensionIds.flatMap((id) => [`chrome-extension://${id}${RECORDER_CALLBACK_PATH}`, `https://${id}.chromiumapp.org/`]);
}

// Invitation links: the link-token scheme (link-token.ts) at `{APP_URL}/invite/{token}`.
import { linkTokenDigest, linkTokenSchema, linkUrl, newLinkToken } from './link-token';

export const newInvitationToken = newLinkToken;
export const invitationDigest = linkTokenDigest;
export const invitationUrl = (appUrl: string, token: string) => linkUrl(appUrl, 'invite', token);

export const invitationTokenSchema = linkTokenSchema('an invitation link').meta({
  description: 'The token from the invitation link (`{app_url}/invite/{token}`).',
});

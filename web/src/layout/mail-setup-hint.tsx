import { useCan } from '../session/use-can';

/**
 * What to do about a server that cannot send e-mail, for this reader: admins are told the settings
 * (README, configuration: SMTP_URL and MAIL_FROM), everyone else to ask an admin.
 */
export function MailSetupHint() {
  const admin = useCan()('workspace.manage');
  if (!admin) return <>Ask an admin of this server to set up e-mail.</>;
  return (
    <>
      To send e-mail, set <code>SMTP_URL</code> (e.g. <code>smtp://user:pass@smtp.example.com:587</code>) and <code>MAIL_FROM</code> in
      the server's environment and restart it.
    </>
  );
}

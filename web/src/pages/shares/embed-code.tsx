import { useState } from 'react';
import { consentCall, embedCode, type Share } from '../../api/shares.api';
import { CopyField } from '../../components/copy-field';
import { Checkbox } from '../../components/field';

/** The embed code of a link, with the option to wait for the page's cookie consent (docs/consent.md). */
export function EmbedCode({ share, title }: { share: Pick<Share, 'embed_url'>; title: string }) {
  const [waitForConsent, setWaitForConsent] = useState(false);
  return (
    <div className="stack">
      <Checkbox
        label="Wait for the site’s cookie consent"
        description="The player stores nothing on the visitor’s device (no cookie, no storage) until your page grants consent; views still count, as anonymous ones."
        checked={waitForConsent}
        onChange={(e) => setWaitForConsent(e.target.checked)}
      />
      <CopyField label="Embed code" value={embedCode(share, title, waitForConsent)} />
      {waitForConsent ? (
        <>
          <CopyField label="Consent call" value={consentCall(share)} />
          <p className="field-hint">
            Run it when your consent tool says yes (with <code>granted: false</code> to withdraw: the player clears what it stored). The
            player asks again with a <code>consent_pending</code> message when it loads; see the consent guide.
          </p>
        </>
      ) : null}
    </div>
  );
}

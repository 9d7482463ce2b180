/**
 * oauth-callback.html: where the consent page sends the browser with the authorization code. The page only
 * hands the address to the background worker, which checks the state and exchanges the code.
 */
const message = document.getElementById('message')!;
const detail = document.getElementById('detail')!;

chrome.runtime
  .sendMessage({ type: 'oauth-callback', url: location.href })
  .then((reply: { ok: boolean; result?: { instanceUrl: string }; error?: string }) => {
    // The code must not linger in the address bar or the history.
    history.replaceState(null, '', location.pathname);
    if (reply?.ok) {
      document.body.dataset.state = 'connected';
      message.textContent = 'Connected';
      detail.textContent = `The recorder is connected to ${reply.result!.instanceUrl}. You can close this tab and start recording from the toolbar.`;
    } else {
      document.body.dataset.state = 'failed';
      message.textContent = 'Not connected';
      detail.textContent = reply?.error ?? 'The extension did not answer.';
    }
  });

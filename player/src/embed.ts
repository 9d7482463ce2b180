/**
 * Messages to the page that embeds the player in an iframe. They carry no viewer identity (the host page
 * may belong to anyone the link was given to), only where the viewer is in the demo.
 * The contract is documented in docs/player.md.
 */
export type HostMessage =
  | { type: 'ready'; step_count: number }
  | { type: 'step_reached'; step_number: number; step_count: number }
  | { type: 'hotspot_clicked'; step_number: number; hotspot_id: string; label: string; action: string }
  | { type: 'completed'; step_count: number }
  | { type: 'cta_clicked'; url: string; step_number?: number; element_id?: string }
  | { type: 'chapter_selected'; step_number: number; chapter_id: string }
  | { type: 'action_taken'; step_number: number; element_id: string; action_type: string; target_step?: number }
  | { type: 'form_shown' | 'form_submitted'; step_number: number }
  // docs/consent.md: the player waits for the page's consent (answer with a `demoshare:consent` message),
  // and acknowledges each decision it took.
  | { type: 'consent_pending' }
  | { type: 'consent_changed'; granted: boolean };

export function postToHost(message: HostMessage) {
  if (window.parent === window) return;
  try {
    // '*' because the embedding origin is unknown and the messages hold nothing secret.
    window.parent.postMessage({ source: 'demoshare', ...message }, '*');
  } catch {
    // A host that went away mid-message is not the player's problem.
  }
}

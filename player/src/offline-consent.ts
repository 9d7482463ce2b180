import { type Consent, createConsent } from './consent';
import { applyBrand, type Brand } from './brand';
import { h } from './dom';

// The question an offline file asks before its beacon sends or stores anything (export with beacon=ask,
// docs/offline.md). A file handed to someone runs on their device, where the sender has no cookie banner:
// the file asks itself, in a bar over the page's header. Until the answer is yes, events stay in memory and no request leaves the page; the
// answer is remembered on the device (a refusal too, so that it is not asked again), and nothing else is.

type Decision = 'granted' | 'denied';

const decisionKey = (beaconUrl: string) => `demoshare:offline-consent:${beaconUrl}`;

function remembered(beaconUrl: string): Decision | null {
  try {
    const value = localStorage.getItem(decisionKey(beaconUrl));
    return value === 'granted' || value === 'denied' ? value : null;
  } catch {
    return null;
  }
}

function remember(beaconUrl: string, decision: Decision) {
  try {
    localStorage.setItem(decisionKey(beaconUrl), decision);
  } catch {
    // Blocked storage: the answer holds for this page only.
  }
}

/**
 * The beacon's consent for a file made with beacon=ask: granted or refused on this device before, or asked
 * now in a bar over the header, in the brand's colour and font. Null when refused: the file then has no beacon at all.
 *
 * @example
 * const consent = askBeaconConsent(document.body, bundle.beacon.url, brand);
 * const tracker = consent ? new Tracker(beaconApi(url, consent), key, consent) : null;
 */
export function askBeaconConsent(host: HTMLElement, beaconUrl: string, brand: Brand | null): Consent | null {
  const decided = remembered(beaconUrl);
  if (decided === 'denied') return null;
  // Pending: the tracker keeps events in memory and the beacon holds them back until the answer.
  const consent = createConsent(decided === 'granted' ? '' : '?consent=pending');
  if (decided === 'granted') return consent;
  const answer = (decision: Decision) => () => {
    remember(beaconUrl, decision);
    bar.remove();
    consent.set(decision === 'granted');
  };
  const who = brand?.name.trim() || 'its sender';
  const bar = h(
    'div',
    { class: 'ds-offline-consent', role: 'region', 'aria-label': 'Viewing statistics' },
    h('p', {}, `May this copy tell ${who} how it is viewed? It sends which steps are seen and for how long when you are online, never what you type.`),
    h(
      'div',
      { class: 'ds-offline-consent-actions' },
      h('button', { type: 'button', class: 'ds-button', onclick: answer('denied') }, 'No thanks'),
      h('button', { type: 'button', class: 'ds-button ds-button-primary', onclick: answer('granted') }, 'Allow'),
    ),
  );
  // Outside the player's root, which it redraws: the bar wears the brand on its own.
  applyBrand(bar, brand);
  host.append(bar);
  return consent;
}

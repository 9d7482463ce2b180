// What a link shows of itself before its gates: to the viewer at the gate, and to the apps that unfurl it.
import type { ShareRow } from '../shares/shares.schemas';
import type { Brand } from '../workspaces/branding';
import { isAllowed } from './viewer-gates.resolve';
import type { ViewerSessionRow } from './viewer.repo';
import type { FormStep } from './viewer-gates.form';
import { fillVariables } from './viewer-variables';

const fillTitle = (title: string | null, vars: Readonly<Record<string, string>>) => (title === null ? null : fillVariables(title, vars));

/** The inputs of the one gate form. */
export type GateField = 'password' | 'name' | 'email';

/** What the demo would say of itself (its published version): title, first step's text, first screenshot. */
export interface DemoFacts {
  title: string;
  description: string;
  /** As in the payload: a path on this server, or absolute on API_URL. */
  imageUrl: string | null;
  /** The lead form standing in for the identification gate, if the version has one (viewer-gates.form.ts). */
  gateForm?: FormStep;
}

type Link = Pick<
  ShareRow,
  | 'token'
  | 'passwordHash'
  | 'passwordVersion'
  | 'requireIdentification'
  | 'allowedEmails'
  | 'allowedDomains'
  | 'previewTitle'
  | 'previewDescription'
  | 'previewImageAssetId'
  | 'showTitleBeforeUnlock'
  | 'variables'
>;
type Session = Pick<ViewerSessionRow, 'passwordVersion' | 'viewerEmail'> | undefined;

const passwordOpen = (share: Link, session: Session) =>
  share.passwordHash === null || session?.passwordVersion === share.passwordVersion;

/** The inputs the viewer must still fill, in order (the same rule as the gates: viewer-gates.resolve.ts `gateOf`). */
export function gateFields(share: Link, session: Session): GateField[] {
  const fields: GateField[] = passwordOpen(share, session) ? [] : ['password'];
  if (share.requireIdentification && !(session?.viewerEmail && isAllowed(share, session.viewerEmail))) {
    fields.push('name', 'email');
  }
  return fields;
}

/**
 * The demo's title as this viewer may see it: behind a closed password gate it stays protected unless the
 * owner chose to show it; the link's own preview title is public by the owner's choice. Null: neither.
 */
export function visibleTitle(share: Link, session: Session, demoTitle: string): string | null {
  if (share.showTitleBeforeUnlock || passwordOpen(share, session)) return demoTitle;
  return share.previewTitle;
}

/** Where unfurls fetch the link's chosen preview image: public, outside the gates (viewer.pages.ts). */
export const previewImagePath = (token: string) => `/s/${token}/preview-image`;

/** What a link's unfurl (Open Graph, Twitter card) and its page title show. */
export interface LinkPreview {
  title: string;
  description: string;
  /** A path on this server or an absolute address; null: no image. */
  imageUrl: string | null;
  siteName: string;
}

/**
 * A link's unfurl. A link anyone may open shows its demo (title, first step's text, first screenshot); a
 * gated one shows the workspace, the title only where `visibleTitle` allows it to a stranger, and never a
 * step's text or screenshot. The owner's preview title, text and image win everywhere: they chose them.
 */
export function linkPreview(share: Link, brand: Pick<Brand, 'name'>, demo: DemoFacts): LinkPreview {
  const open = share.passwordHash === null && !share.requireIdentification;
  const siteName = brand.name || 'Demoshare';
  const title = share.previewTitle ?? visibleTitle(share, undefined, demo.title) ?? `${siteName} shared a demo with you`;
  const description =
    share.previewDescription ?? (open ? demo.description : `An interactive demo shared by ${siteName}.`);
  const imageUrl = share.previewImageAssetId ? previewImagePath(share.token) : open ? demo.imageUrl : null;
  return { title, description, imageUrl, siteName };
}

/** The link state's additions for the one gate form: what to ask, whose brand, which title. */
export function gateView(share: Link, session: Session, brand: Brand, demo: DemoFacts) {
  const fields = gateFields(share, session);
  // The gate form, once the password (if any) is behind the viewer: its fields are the demo's content.
  const form = demo.gateForm && fields[0] === 'name' ? demo.gateForm : undefined;
  return {
    // Before it, the password alone: name and e-mail will be asked by the form, not beside the password.
    fields: demo.gateForm && fields[0] === 'password' ? fields.slice(0, 1) : fields,
    brand,
    // Personalised as the page title is (viewer-variables.ts): the link's values, else the fallbacks.
    title: fillTitle(visibleTitle(share, session, demo.title), share.variables),
    ...(form ? { form: { step_number: form.stepNumber, fields: form.form.fields, submit_label: form.form.submit_label } } : {}),
  };
}

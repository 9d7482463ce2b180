import { useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import {
  DEFAULT_BRAND_COLOR,
  FONT_KEYS,
  FONT_STACKS,
  type FontKey,
  LOGO_MAX_BYTES,
  LOGO_MAX_SIDE,
  textOn,
  workspaceApi,
} from '../../api/workspace.api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { SelectField, TextField } from '../../components/field';
import { type FieldErrors, useFormSubmit } from '../../components/form-dialog';
import { useToast } from '../../components/toast';
import type { SectionProps } from './workspace-name-section';

const HEX = /^#[0-9a-f]{6}$/i;
const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/** The size of an image file, read by the browser, so that a logo too large is said before uploading it. */
function imageSize(file: File): Promise<{ width: number; height: number } | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => {
      resolve({ width: img.naturalWidth, height: img.naturalHeight });
      URL.revokeObjectURL(url);
    };
    img.onerror = () => {
      resolve(null);
      URL.revokeObjectURL(url);
    };
    img.src = url;
  });
}

/** Logo, brand colour and font of the share pages and the player, with a preview of how viewers see them. */
export function BrandingSection({ settings, canManage, onSaved }: SectionProps) {
  const { branding } = settings;
  const [color, setColor] = useState(branding.brand_color ?? '');
  const [font, setFont] = useState<FontKey>(branding.font);
  const [logoError, setLogoError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [removing, setRemoving] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const notify = useToast();

  const colorValid = color === '' || HEX.test(color);
  const shown = colorValid && color ? color : DEFAULT_BRAND_COLOR;
  const changed = (color || null) !== branding.brand_color || font !== branding.font;

  const form = useFormSubmit({
    validate: (): FieldErrors => (colorValid ? {} : { brand_color: 'Use a colour such as #0f766e: # and six digits or letters a–f' }),
    send: () => workspaceApi.update({ branding: { brand_color: color ? color.toLowerCase() : null, font } }),
    onDone: async (next) => {
      await onSaved(next);
      notify('Branding saved: share pages and players show it now');
    },
    failure: 'The branding could not be saved. Try again.',
    fieldErrors: (err) => {
      const fields = err.fieldErrors();
      return fields['branding.brand_color'] ? { brand_color: fields['branding.brand_color'] } : null;
    },
    staysOpen: true,
  });

  async function upload(file: File) {
    setLogoError(null);
    if (!LOGO_TYPES.includes(file.type)) {
      setLogoError('Logos can be PNG, JPEG or WebP images.');
      return;
    }
    if (file.size > LOGO_MAX_BYTES) {
      setLogoError(`Logos can be up to ${LOGO_MAX_BYTES / 1024} KB; this one is ${Math.ceil(file.size / 1024)} KB.`);
      return;
    }
    const size = await imageSize(file);
    if (size && (size.width > LOGO_MAX_SIDE || size.height > LOGO_MAX_SIDE)) {
      setLogoError(`Logos can be up to ${LOGO_MAX_SIDE} pixels on each side; this one is ${size.width} × ${size.height}.`);
      return;
    }
    setUploading(true);
    try {
      await onSaved(await workspaceApi.uploadLogo(file));
      notify('Logo uploaded');
    } catch (err) {
      setLogoError(err instanceof ApiError ? err.message : 'The logo could not be uploaded. Try again.');
    } finally {
      setUploading(false);
    }
  }

  return (
    <section className="card" aria-labelledby="branding-heading">
      <div className="card-header">
        <h2 id="branding-heading">Branding</h2>
        <p className="muted">How your share pages and the demo player look to viewers: every demo of the workspace, at once.</p>
      </div>
      <div className="card-body branding-layout">
        <div className="stack branding-fields">
          <div className="field">
            <span className="field-label" id="logo-label">
              Logo
            </span>
            <div className="logo-row">
              <div className="logo-frame">
                {branding.logo_url ? <img src={branding.logo_url} alt={`${settings.name} logo`} /> : <span className="muted">No logo</span>}
              </div>
              {canManage ? (
                <div className="row">
                  <input
                    ref={fileInput}
                    type="file"
                    accept={LOGO_TYPES.join(',')}
                    className="visually-hidden"
                    aria-label="Logo file"
                    tabIndex={-1}
                    onChange={(e) => {
                      const file = e.target.files?.[0];
                      e.target.value = '';
                      if (file) void upload(file);
                    }}
                  />
                  <Button loading={uploading} onClick={() => fileInput.current?.click()}>
                    {branding.logo_url ? 'Replace logo' : 'Upload logo'}
                  </Button>
                  {branding.logo_url ? (
                    <Button variant="ghost" onClick={() => setRemoving(true)}>
                      Remove
                    </Button>
                  ) : null}
                </div>
              ) : null}
            </div>
            <p className="field-hint">PNG, JPEG or WebP, up to {LOGO_MAX_BYTES / 1024} KB. Shown up to 40 px high: a wide logo on a transparent background reads best.</p>
            {logoError ? <Alert tone="danger">{logoError}</Alert> : null}
          </div>

          <form className="stack" onSubmit={form.submit} noValidate aria-label="Brand colour and font">
            {form.formError ? <Alert tone="danger">{form.formError}</Alert> : null}
            <div className="color-row">
              <input
                type="color"
                className="color-swatch"
                aria-label="Pick the brand colour"
                value={shown.toLowerCase()}
                disabled={!canManage}
                onChange={(e) => {
                  setColor(e.target.value);
                  form.clearError('brand_color');
                }}
              />
              <TextField
                label="Brand colour"
                name="brand-color"
                placeholder={DEFAULT_BRAND_COLOR}
                hint={color ? 'Buttons, hotspots and progress in the player. A demo can set its own.' : `The default, ${DEFAULT_BRAND_COLOR}.`}
                value={color}
                maxLength={7}
                readOnly={!canManage}
                onChange={(e) => {
                  setColor(e.target.value.trim());
                  form.clearError('brand_color');
                }}
                error={form.errors.brand_color}
              />
              {canManage && color ? (
                <Button variant="ghost" onClick={() => setColor('')}>
                  Use the default
                </Button>
              ) : null}
            </div>
            <SelectField label="Font" name="font" value={font} disabled={!canManage} onChange={(e) => setFont(e.target.value as FontKey)} hint="Fonts your viewers' systems already have: nothing to download.">
              {FONT_KEYS.map((key) => (
                <option key={key} value={key} style={{ fontFamily: FONT_STACKS[key].stack }}>
                  {FONT_STACKS[key].label}
                </option>
              ))}
            </SelectField>
            {canManage ? (
              <div>
                <Button type="submit" variant="primary" loading={form.busy} disabled={!changed}>
                  Save branding
                </Button>
              </div>
            ) : null}
          </form>
        </div>

        <figure className="brand-preview" aria-label="Preview of a share page" style={{ fontFamily: FONT_STACKS[font].stack, ['--brand' as string]: shown, ['--on-brand' as string]: textOn(shown) }}>
          <div className="brand-preview-top">
            {branding.logo_url ? <img src={branding.logo_url} alt="" /> : null}
            <strong>Product tour</strong>
            <span className="muted">2 / 5</span>
          </div>
          <div className="brand-preview-progress">
            <span />
          </div>
          <div className="brand-preview-stage">
            <span className="brand-preview-hotspot" />
            <span className="brand-preview-tip">Click here to create an invoice</span>
          </div>
          <div className="brand-preview-bar">
            <span>Create your first invoice</span>
            <span className="brand-preview-button">Next</span>
          </div>
          <figcaption className="muted small">Preview: {FONT_STACKS[font].label}, {shown}</figcaption>
        </figure>
      </div>
      {removing ? (
        <ConfirmDialog
          title="Remove the logo?"
          confirmLabel="Remove logo"
          danger
          onClose={() => setRemoving(false)}
          onConfirm={async () => {
            await workspaceApi.removeLogo();
            await onSaved(settings);
            setRemoving(false);
            notify('Logo removed');
          }}
        >
          Share pages and players show the workspace without a logo from now on. You can upload one again at any time.
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

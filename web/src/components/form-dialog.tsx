import { type FormEvent, type ReactNode, useState } from 'react';
import { ApiError } from '../api/client';
import { Alert } from './alert';
import { Button } from './button';
import { Dialog, type DialogProps } from './dialog';

/** Field name → message, shown under the matching input. */
export type FieldErrors = Record<string, string>;

export interface FormSubmitOptions<T> {
  /** Problems found before sending; nothing is sent while there are any. */
  validate?(): FieldErrors;
  send(): Promise<T>;
  /** Gets the result; the caller usually closes the form, so the button stays busy until then. */
  onDone(result: T): void | Promise<void>;
  /** The form stays on screen after success (a section of a page, not a dialog): the button is freed again. */
  staysOpen?: boolean;
  /** Said above the form when the failure is not an answer from the API. */
  failure: string;
  /**
   * The API's refusal as messages under fields, or null to say it above the form. By default its
   * `details`, by field; a form whose fields the server names differently maps them here.
   */
  fieldErrors?(err: ApiError): FieldErrors | null;
}

const detailsByField = (err: ApiError) => (err.details.length > 0 ? err.fieldErrors() : null);

/**
 * The submit cycle every form of the app shares: check, send, then either hand over the result or show
 * what went wrong, under the fields it concerns or above the form.
 */
export function useFormSubmit<T>({ validate, send, onDone, failure, staysOpen, fieldErrors = detailsByField }: FormSubmitOptions<T>) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const problems = validate?.() ?? {};
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      await onDone(await send());
      if (staysOpen) setBusy(false);
    } catch (err) {
      setBusy(false);
      const fields = err instanceof ApiError ? fieldErrors(err) : null;
      if (fields) setErrors(fields);
      else setFormError(err instanceof ApiError ? err.message : failure);
    }
  }

  return {
    errors,
    formError,
    busy,
    submit,
    /** An edited field's old error would mislead until the next submit. */
    clearError: (field: string) => setErrors(({ [field]: _, ...rest }) => rest),
  };
}

export type FormState = ReturnType<typeof useFormSubmit>;

export interface FormDialogProps extends Pick<DialogProps, 'title' | 'description' | 'size' | 'onClose'> {
  /** The form's id, which the footer's submit button points at. */
  id: string;
  submitLabel: ReactNode;
  form: Pick<FormState, 'submit' | 'busy' | 'formError'>;
  children: ReactNode;
}

/** A dialog that is one form: its fields, an error above them, and Cancel / submit in the footer. */
export function FormDialog({ id, title, description, size, onClose, submitLabel, form, children }: FormDialogProps) {
  return (
    <Dialog
      title={title}
      description={description}
      size={size}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" form={id} variant="primary" loading={form.busy}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form id={id} className="stack" onSubmit={form.submit} noValidate>
        {form.formError ? <Alert tone="danger">{form.formError}</Alert> : null}
        {children}
      </form>
    </Dialog>
  );
}

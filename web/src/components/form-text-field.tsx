import type { ComponentProps } from 'react';
import { TextField } from './field';
import type { FormState } from './form-dialog';

type FormTextFieldProps = Omit<ComponentProps<typeof TextField>, 'form' | 'name' | 'onChange' | 'error'> & {
  /** The form of useFormSubmit this field belongs to: its error for `name` shows under the field. */
  form: Pick<FormState, 'errors' | 'clearError'>;
  /** The field's name, which is also the API's `details[].field` for it. */
  name: string;
  /** Called with the new text on each edit. */
  onValue(value: string): void;
};

/**
 * A TextField of a useFormSubmit form: its error is the form's error for `name`, and an edit clears that
 * error (an old message would mislead until the next submit), so the forms do not each wire both.
 */
export function FormTextField({ form, name, onValue, ...field }: FormTextFieldProps) {
  return (
    <TextField
      {...field}
      name={name}
      onChange={(e) => {
        onValue(e.target.value);
        form.clearError(name);
      }}
      error={form.errors[name]}
    />
  );
}

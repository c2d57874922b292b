/** The key form: the admin key or any key with the permissions needed, kept in this tab only. */
import { useState } from 'react';
import type { FormEvent } from 'react';

export function SignInForm({ button, hint, onKey }: { button: string; hint: string; onKey: (key: string) => void }) {
  const [value, setValue] = useState('');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    // Handled here: a native submit would put the key in the URL as a GET parameter.
    event.preventDefault();
    if (value.trim() !== '') onKey(value.trim());
  };
  return (
    <form className="vt-admin-key" method="post" action="" onSubmit={submit}>
      <label htmlFor="vt-console-key">Admin API key</label>
      <input id="vt-console-key" type="password" autoComplete="off" spellCheck={false} value={value} onChange={(event) => setValue(event.target.value)} required />
      <button type="submit" className="vt-primary">
        {button}
      </button>
      <p className="vt-admin-hint">{hint}</p>
    </form>
  );
}

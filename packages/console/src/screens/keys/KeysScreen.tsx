/**
 * API keys (admin key only): list, create with ACL, indices, referers, rate limits, validity and query
 * parameters, edit, delete, restore. A new key's value is shown once: the server keeps only its hash.
 */
import { useCallback, useEffect, useState } from 'react';
import type { GetApiKeyResponse } from 'algoliasearch';
import { allAcls, describeError } from '../../api/access.ts';
import type { Acl } from '../../api/access.ts';
import { useConsole } from '../../api/context.ts';
import { emptyKeyForm, formToKey, keyToForm } from './key-form.ts';
import type { KeyForm } from './key-form.ts';
import { ErrorAlert, OutcomeLine, useAction } from '../../shared/status.tsx';
import { Screen } from '../../shared/Screen.tsx';
import { Table } from '../../shared/DataTable.tsx';
import { RowActions } from '../../shared/confirm.tsx';
import { Field, FormActions, TextField } from '../../shared/form.tsx';

type Editing = { mode: 'create'; form: KeyForm } | { mode: 'edit'; key: string; form: KeyForm };

function KeyEditor({ editing, onChange, onSubmit, onCancel }: { editing: Editing; onChange: (form: KeyForm) => void; onSubmit: () => void; onCancel: () => void }) {
  const { form } = editing;
  const number = (field: 'maxQueriesPerIPPerHour' | 'maxHitsPerQuery' | 'validity', label: string, help: string) => (
    <Field label={label} hint={help}>
      <input type="number" min={0} value={form[field]} onChange={(event) => onChange({ ...form, [field]: Number(event.target.value) })} />
    </Field>
  );
  return (
    <form
      className="vt-console-panel"
      aria-label={editing.mode === 'create' ? 'New key' : 'Edit key'}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <TextField label="Description" value={form.description} onChange={(description) => onChange({ ...form, description })} />
      <fieldset className="vt-console-field">
        <legend>Permissions (ACL)</legend>
        {allAcls.map((acl) => (
          <label key={acl}>
            <input type="checkbox" checked={form.acl.includes(acl)} onChange={(event) => onChange({ ...form, acl: event.target.checked ? [...form.acl, acl] : form.acl.filter((item: Acl) => item !== acl) })} /> {acl}
          </label>
        ))}
      </fieldset>
      <TextField label="Indices" hint="Comma-separated names or patterns (products_*); empty: every index." value={form.indexes} onChange={(indexes) => onChange({ ...form, indexes })} />
      <TextField label="Referers" hint="Comma-separated pages allowed to use the key (https://shop.example/*); empty: any." value={form.referers} onChange={(referers) => onChange({ ...form, referers })} />
      {number('maxQueriesPerIPPerHour', 'Max queries per IP per hour', 'Rate limit per client address; 0: none.')}
      {number('maxHitsPerQuery', 'Max hits per query', 'Caps the results per search; 0: none.')}
      {number('validity', 'Validity (seconds)', 'How long the key works after creation; 0: forever.')}
      <TextField
        label="Query parameters"
        hint="Search parameters forced on every query made with the key (filters=brand:Acme)."
        value={form.queryParameters}
        onChange={(queryParameters) => onChange({ ...form, queryParameters })}
      />
      <FormActions submit={editing.mode === 'create' ? 'Create key' : 'Save key'} onCancel={onCancel} />
    </form>
  );
}

export default function KeysScreen() {
  const { client } = useConsole();
  const [keys, setKeys] = useState<GetApiKeyResponse[] | undefined>();
  const [loadError, setLoadError] = useState('');
  const [editing, setEditing] = useState<Editing | undefined>();
  const [created, setCreated] = useState('');
  const [deleted, setDeleted] = useState<GetApiKeyResponse[]>([]);
  const [outcome, run] = useAction();

  const load = useCallback(() => {
    client.listApiKeys().then(
      (response) => setKeys(response.keys),
      (error: unknown) => setLoadError(describeError(error, 'list API keys', 'admin')),
    );
  }, [client]);
  useEffect(load, [load]);

  const submit = async () => {
    if (!editing) return;
    const definition = formToKey(editing.form);
    if (editing.mode === 'create') {
      await run({ action: 'create keys', acl: 'admin', busy: 'Creating key…', done: 'Key created. Copy its value now: it is not shown again.' }, async () => {
        const { key } = await client.addApiKey(definition);
        setCreated(key);
      });
    } else {
      await run({ action: 'change keys', acl: 'admin', busy: 'Saving key…', done: 'Key saved.' }, async () => {
        await client.updateApiKey({ key: editing.key, apiKey: definition });
      });
    }
    setEditing(undefined);
    load();
  };

  const remove = (key: GetApiKeyResponse) =>
    run({ action: 'delete keys', acl: 'admin', busy: 'Deleting key…', done: `Key “${key.description || key.value.slice(0, 16)}” deleted; it can be restored below.` }, async () => {
      await client.deleteApiKey({ key: key.value });
      setDeleted((current) => [key, ...current]);
      load();
    });

  const restore = (key: GetApiKeyResponse) =>
    run({ action: 'restore keys', acl: 'admin', busy: 'Restoring key…', done: `Key “${key.description || key.value.slice(0, 16)}” restored.` }, async () => {
      await client.restoreApiKey({ key: key.value });
      setDeleted((current) => current.filter((item) => item.value !== key.value));
      load();
    });

  return (
    <Screen title="API keys" intro="Keys for shops, importers and colleagues, each with only the permissions it needs. Values are stored hashed.">
      {loadError && <ErrorAlert message={loadError} />}
      <OutcomeLine outcome={outcome} />
      {created && (
        <div className="vt-console-panel">
          <p>New key (shown once):</p>
          <p className="vt-console-secret" data-testid="new-key">
            {created}
          </p>
          <button type="button" onClick={() => setCreated('')}>
            I have copied it
          </button>
        </div>
      )}
      {!editing && (
        <button type="button" onClick={() => setEditing({ mode: 'create', form: emptyKeyForm })}>
          New key
        </button>
      )}
      {editing && <KeyEditor editing={editing} onChange={(form) => setEditing({ ...editing, form })} onSubmit={() => void submit()} onCancel={() => setEditing(undefined)} />}
      {keys && (
        <Table
          label="API keys"
          rows={keys}
          rowKey={(key) => key.value}
          columns={[
            { label: 'Description', cell: (key) => key.description || '(no description)' },
            { label: 'Permissions', cell: (key) => key.acl.join(', ') },
            { label: 'Indices', cell: (key) => (key.indexes?.length ? key.indexes.join(', ') : 'all') },
            // Algolia answers seconds; some servers milliseconds.
            { label: 'Created', cell: (key) => new Date(key.createdAt > 1e12 ? key.createdAt : key.createdAt * 1000).toLocaleDateString('en-US') },
            {
              label: 'Actions',
              actions: true,
              cell: (key) => (
                <RowActions name={key.description || key.value} onEdit={() => setEditing({ mode: 'edit', key: key.value, form: keyToForm(key) })} onDelete={() => void remove(key)} />
              ),
            },
          ]}
        />
      )}
      {deleted.length > 0 && (
        <div className="vt-console-panel">
          <h3>Deleted in this session</h3>
          <ul>
            {deleted.map((key) => (
              <li key={key.value}>
                {key.description || key.value}{' '}
                <button type="button" aria-label={`Restore ${key.description || key.value}`} onClick={() => void restore(key)}>
                  Restore
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Screen>
  );
}

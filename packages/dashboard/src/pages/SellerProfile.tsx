import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { SellerProfile as Profile } from '@billow/contract';
import { api } from '../api';
import { useAction, useResource } from '../data';
import { when } from '../format';
import { useCan } from '../session';
import { ErrorNote, Field, Loading, Notice, PageTitle, Section, Select } from '../ui/kit';
import { ADDRESS_FIELDS, besideField, draftOf, patchOf, refusedField, TEXT_FIELDS, taxRow, type AddressField, type Draft, type Language, type TextField } from './profile-draft';
import { SellerLogo } from './SellerLogo';
import { SellerPreview } from './SellerPreview';

const LANGUAGES: Record<Language, string> = { en: 'English', de: 'German', fr: 'French', es: 'Spanish', ja: 'Japanese' };
const TIME_ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];

type Fields<K extends string> = Array<[K, string, string, string?]>;
const BUSINESS: Fields<TextField> = [
  ['displayName', 'Display name', 'text', "The name buyers see on checkout pages, the portal and emails; blank: the organization's name."],
  ['legalName', 'Legal name', 'text', 'The legal entity that sells, as on invoices.'],
  ['supportEmail', 'Support email', 'email'],
  ['supportUrl', 'Support page', 'url'],
];
const LINKS: Fields<TextField> = [
  ['websiteUrl', 'Website', 'url'],
  ['termsUrl', 'Terms of sale', 'url'],
  ['privacyUrl', 'Privacy policy', 'url'],
  ['refundPolicyUrl', 'Refund policy', 'url'],
];
const ADDRESS: Fields<AddressField> = [
  ['line1', 'Street and number', 'text'],
  ['line2', 'Building, floor, suite', 'text'],
  ['postalCode', 'Postal code', 'text'],
  ['city', 'City', 'text'],
  ['region', 'State, province or county', 'text'],
  ['country', 'Country', 'text', 'Two letters, such as DE or US.'],
];

interface FormProps {
  draft: Draft;
  setDraft(draft: Draft): void;
  /** The API's refusal of the last save, for the field it names. */
  errorOf(path: string): string | undefined;
}

function TextFields({ fields, draft, setDraft, errorOf }: FormProps & { fields: Fields<TextField> }) {
  return fields.map(([name, label, type, hint]) => (
    <Field key={name} label={label} type={type} hint={hint} error={errorOf(name)} value={draft.text[name]} onChange={(e) => setDraft({ ...draft, text: { ...draft.text, [name]: e.target.value } })} />
  ));
}

function TextCard({ title, ...props }: FormProps & { title: string; fields: Fields<TextField> }) {
  return (
    <Section title={title}>
      <div className="form-grid">
        <TextFields {...props} />
      </div>
    </Section>
  );
}

function AddressFields({ draft, setDraft, errorOf }: FormProps) {
  return (
    <div className="form-grid">
      {ADDRESS.map(([name, label, type, hint]) => (
        <Field key={name} label={label} type={type} hint={hint} error={errorOf(`address.${name}`)} value={draft.address[name]} onChange={(e) => setDraft({ ...draft, address: { ...draft.address, [name]: e.target.value } })} />
      ))}
    </div>
  );
}

function TaxRegistrations({ draft, setDraft, errorOf, readOnly }: FormProps & { readOnly: boolean }) {
  const rows = draft.taxRegistrations;
  const update = (index: number, change: Partial<(typeof rows)[number]>) => setDraft({ ...draft, taxRegistrations: rows.map((row, i) => (i === index ? { ...row, ...change } : row)) });
  return (
    <>
      {rows.length === 0 ? <p className="muted">No tax registrations.</p> : null}
      {rows.map((row, index) => (
        <div key={row.key} className="tax-row">
          <Field label={`Country of registration ${index + 1}`} hint="Two letters" maxLength={2} error={errorOf(`taxRegistrations[${index}].country`)} value={row.country} onChange={(e) => update(index, { country: e.target.value })} />
          <Field label={`Tax ID ${index + 1}`} error={errorOf(`taxRegistrations[${index}]`) ?? errorOf(`taxRegistrations[${index}].taxId`)} value={row.taxId} onChange={(e) => update(index, { taxId: e.target.value })} />
          {readOnly ? null : (
            <button type="button" className="secondary" onClick={() => setDraft({ ...draft, taxRegistrations: rows.filter((_, i) => i !== index) })}>
              Remove<span className="visually-hidden"> tax registration {index + 1}</span>
            </button>
          )}
        </div>
      ))}
      {readOnly ? null : (
        <button type="button" className="secondary" onClick={() => setDraft({ ...draft, taxRegistrations: [...rows, taxRow()] })}>
          Add a tax registration
        </button>
      )}
    </>
  );
}

function DocumentFields({ draft, setDraft, errorOf }: FormProps) {
  const zones = TIME_ZONES.includes(draft.text.timeZone) ? TIME_ZONES : [draft.text.timeZone, ...TIME_ZONES];
  return (
    <div className="form-grid">
      <TextFields fields={[['invoicePrefix', 'Invoice number prefix', 'text', 'Up to 12 capital letters, digits and inner dashes: ACME gives ACME-2026-000042.']]} draft={draft} setDraft={setDraft} errorOf={errorOf} />
      <Select label="Language of documents" options={Object.entries(LANGUAGES)} error={errorOf('defaultLanguage')} value={draft.language} onChange={(e) => setDraft({ ...draft, language: e.target.value as Language })} />
      <Select label="Time zone" options={zones.map((zone) => [zone, zone.replace(/_/g, ' ')])} error={errorOf('timeZone')} value={draft.text.timeZone} onChange={(e) => setDraft({ ...draft, text: { ...draft.text, timeZone: e.target.value } })} />
    </div>
  );
}

/** The paths of the API's fields this form shows, each beside its own refusal. */
function shownFields(draft: Draft): Set<string> {
  const taxes = draft.taxRegistrations.flatMap((_, i) => [`taxRegistrations[${i}]`, `taxRegistrations[${i}].country`, `taxRegistrations[${i}].taxId`]);
  return new Set<string>([...TEXT_FIELDS, 'defaultLanguage', ...ADDRESS_FIELDS.map((name) => `address.${name}`), ...taxes]);
}

/** The whole seller profile, each part a card of one form; read-only for roles the server refuses. */
export function SellerProfile() {
  const canWrite = useCan('settings');
  const loaded = useResource(() => api<Profile>('GET', '/seller-profile/'), []);
  const [profile, setProfile] = useState<Profile>();
  const [draft, setDraft] = useState<Draft>();
  // The form starts over from what was loaded or saved; a new logo changes the profile, never the form's unsaved edits.
  const adopt = (saved: Profile) => {
    setProfile(saved);
    setDraft(draftOf(saved));
  };
  useEffect(() => {
    if (loaded.data) adopt(loaded.data);
  }, [loaded.data]);
  const save = useAction((patch: ReturnType<typeof patchOf>) => api<Profile>('PATCH', '/seller-profile/', { body: patch }));
  const readOnly = !canWrite || save.error?.status === 403;
  const refused = refusedField(save.error);
  // A refusal of a field the form shows is shown beside it; any other, by the button.
  const inPlace = refused !== null && draft !== undefined && shownFields(draft).has(refused);
  const errorOf = (path: string) => (inPlace && refused === path && save.error ? besideField(save.error.detail, path) : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!profile || !draft) return;
    const patch = patchOf(draft, profile);
    if (Object.keys(patch).length === 0) return;
    void save.perform(patch).then((saved) => saved && adopt(saved));
  };
  const props = draft && { draft, setDraft, errorOf };
  return (
    <>
      <PageTitle actions={<Link to="/settings">Back to Settings</Link>}>Seller profile</PageTitle>
      <Loading loading={!draft && !loaded.error} />
      <ErrorNote error={loaded.error} />
      {profile && props ? (
        <>
          <p className="hint">
            Who sells, in this environment, as checkout pages, the portal, invoices and emails show it. Version {profile.version}
            {profile.updatedOn ? `, changed ${when(profile.updatedOn)}` : ', never changed'}.
          </p>
          {readOnly ? <Notice>Your role may read the seller profile; owners and admins change it.</Notice> : null}
          <Section title="Invoice preview">
            <SellerPreview profile={profile} />
          </Section>
          <form onSubmit={submit} aria-label="Seller profile">
            <fieldset className="bare" disabled={readOnly}>
              <legend className="visually-hidden">Seller profile</legend>
              <TextCard title="Business" fields={BUSINESS} {...props} />
              <Section title="Address">
                <AddressFields {...props} />
              </Section>
              <Section title="Tax registrations">
                <TaxRegistrations {...props} readOnly={readOnly} />
              </Section>
              <TextCard title="Links" fields={LINKS} {...props} />
              <Section title="Invoices and documents">
                <DocumentFields {...props} />
              </Section>
              <Section title="Brand">
                <SellerLogo profile={profile} readOnly={readOnly} onSaved={setProfile} />
                <div className="form-grid">
                  <TextFields fields={[['brandColor', 'Brand colour', 'text', 'Six hex digits after #, such as #2F5BD3: buttons and links of checkout pages and emails.']]} {...props} />
                </div>
              </Section>
            </fieldset>
            {readOnly ? null : (
              <div className="save-bar">
                <button type="submit" disabled={save.busy}>
                  Save the profile
                </button>
                {save.error && !inPlace ? <ErrorNote error={save.error} /> : null}
                {save.error && inPlace ? <p className="note note-error">Not saved: the field marked above needs a change.</p> : null}
                {save.result?.version === profile.version && !save.busy && !save.error ? <Notice>Saved: version {save.result.version}.</Notice> : null}
              </div>
            )}
          </form>
        </>
      ) : null}
    </>
  );
}

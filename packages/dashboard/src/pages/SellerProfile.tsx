import { Link } from 'react-router';
import type { SellerProfile as Profile } from '@billow/contract';
import { api } from '../api';
import { useResource } from '../data';
import { when } from '../format';
import { useCan } from '../session';
import { ErrorNote, Field, Loading, Notice, PageTitle, Section, Select } from '../ui/kit';
import { useDraftEditor } from '../draft-editor';
import { ADDRESS_FIELDS, draftOf, patchOf, TEXT_FIELDS, taxRow, type AddressField, type Draft, type Language, type TextField } from './profile-draft';
import { SellerLogo } from './SellerLogo';
import { SellerPreview } from './SellerPreview';
import { LANGUAGE_NAMES, t, type MessageKey } from '../i18n/language';

const TIME_ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];

type Fields<K extends string> = Array<[K, MessageKey, string, MessageKey?]>;
const BUSINESS: Fields<TextField> = [
  ['displayName', 'profile.displayName', 'text', 'profile.displayNameHint'],
  ['legalName', 'profile.legalName', 'text', 'profile.legalNameHint'],
  ['supportEmail', 'profile.supportEmail', 'email'],
  ['supportUrl', 'profile.supportUrl', 'url'],
];
const LINKS: Fields<TextField> = [
  ['websiteUrl', 'profile.websiteUrl', 'url'],
  ['termsUrl', 'profile.termsUrl', 'url'],
  ['privacyUrl', 'profile.privacyUrl', 'url'],
  ['refundPolicyUrl', 'profile.refundPolicyUrl', 'url'],
];
const ADDRESS: Fields<AddressField> = [
  ['line1', 'profile.line1', 'text'],
  ['line2', 'profile.line2', 'text'],
  ['postalCode', 'profile.postalCode', 'text'],
  ['city', 'profile.city', 'text'],
  ['region', 'profile.region', 'text'],
  ['country', 'profile.country', 'text', 'profile.countryHint'],
];

interface FormProps {
  draft: Draft;
  setDraft(draft: Draft): void;
  /** The API's refusal of the last save, for the field it names. */
  errorOf(path: string): string | undefined;
}

function TextFields({ fields, draft, setDraft, errorOf }: FormProps & { fields: Fields<TextField> }) {
  return fields.map(([name, label, type, hint]) => (
    <Field key={name} label={t(label)} type={type} hint={hint && t(hint)} error={errorOf(name)} value={draft.text[name]} onChange={(e) => setDraft({ ...draft, text: { ...draft.text, [name]: e.target.value } })} />
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
        <Field key={name} label={t(label)} type={type} hint={hint && t(hint)} error={errorOf(`address.${name}`)} value={draft.address[name]} onChange={(e) => setDraft({ ...draft, address: { ...draft.address, [name]: e.target.value } })} />
      ))}
    </div>
  );
}

function TaxRegistrations({ draft, setDraft, errorOf, readOnly }: FormProps & { readOnly: boolean }) {
  const rows = draft.taxRegistrations;
  const update = (index: number, change: Partial<(typeof rows)[number]>) => setDraft({ ...draft, taxRegistrations: rows.map((row, i) => (i === index ? { ...row, ...change } : row)) });
  return (
    <>
      {rows.length === 0 ? <p className="muted">{t('profile.noTax')}</p> : null}
      {rows.map((row, index) => (
        <div key={row.key} className="tax-row">
          <Field label={t('profile.taxCountry', { index: index + 1 })} hint={t('profile.twoLetters')} maxLength={2} error={errorOf(`taxRegistrations[${index}].country`)} value={row.country} onChange={(e) => update(index, { country: e.target.value })} />
          <Field label={t('profile.taxId', { index: index + 1 })} error={errorOf(`taxRegistrations[${index}]`) ?? errorOf(`taxRegistrations[${index}].taxId`)} value={row.taxId} onChange={(e) => update(index, { taxId: e.target.value })} />
          {readOnly ? null : (
            <button type="button" className="secondary" onClick={() => setDraft({ ...draft, taxRegistrations: rows.filter((_, i) => i !== index) })}>
              {t('plan.remove')}<span className="visually-hidden"> {t('profile.removeTax', { index: index + 1 })}</span>
            </button>
          )}
        </div>
      ))}
      {readOnly ? null : (
        <button type="button" className="secondary" onClick={() => setDraft({ ...draft, taxRegistrations: [...rows, taxRow()] })}>
          {t('profile.addTax')}
        </button>
      )}
    </>
  );
}

function DocumentFields({ draft, setDraft, errorOf }: FormProps) {
  const zones = TIME_ZONES.includes(draft.text.timeZone) ? TIME_ZONES : [draft.text.timeZone, ...TIME_ZONES];
  return (
    <div className="form-grid">
      <TextFields fields={[['invoicePrefix', 'profile.invoicePrefix', 'text', 'profile.invoicePrefixHint']]} draft={draft} setDraft={setDraft} errorOf={errorOf} />
      <Select label={t('profile.documentLanguage')} options={Object.entries(LANGUAGE_NAMES)} error={errorOf('defaultLanguage')} value={draft.language} onChange={(e) => setDraft({ ...draft, language: e.target.value as Language })} />
      <Select label={t('profile.timeZone')} options={zones.map((zone) => [zone, zone.replace(/_/g, ' ')])} error={errorOf('timeZone')} value={draft.text.timeZone} onChange={(e) => setDraft({ ...draft, text: { ...draft.text, timeZone: e.target.value } })} />
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
  // The form starts over from what was loaded or saved; a new logo changes the profile, never the form's unsaved edits.
  const editor = useDraftEditor({ loaded: loaded.data, draftOf, patchOf, shownFields, save: (patch: ReturnType<typeof patchOf>) => api<Profile>('PATCH', '/seller-profile/', { body: patch }) });
  const { saved: profile, setSaved: setProfile, draft, setDraft, save, inPlace, errorOf, submit } = editor;
  const readOnly = !canWrite || save.error?.status === 403;
  const props = draft && { draft, setDraft, errorOf };
  return (
    <>
      <PageTitle actions={<Link to="/settings">{t('profile.back')}</Link>}>{t('profile.title')}</PageTitle>
      <Loading loading={!draft && !loaded.error} />
      <ErrorNote error={loaded.error} />
      {profile && props ? (
        <>
          <p className="hint">
            {t('profile.about', { version: profile.version, changed: profile.updatedOn ? when(profile.updatedOn) : 'never' })}
          </p>
          {readOnly ? <Notice>{t('profile.readOnly')}</Notice> : null}
          <Section title={t('profile.preview')}>
            <SellerPreview profile={profile} />
          </Section>
          <form onSubmit={submit} aria-label={t('profile.title')}>
            <fieldset className="bare" disabled={readOnly}>
              <legend className="visually-hidden">{t('profile.title')}</legend>
              <TextCard title={t('profile.business')} fields={BUSINESS} {...props} />
              <Section title={t('profile.address')}>
                <AddressFields {...props} />
              </Section>
              <Section title={t('profile.taxRegistrations')}>
                <TaxRegistrations {...props} readOnly={readOnly} />
              </Section>
              <TextCard title={t('profile.links')} fields={LINKS} {...props} />
              <Section title={t('profile.documents')}>
                <DocumentFields {...props} />
              </Section>
              <Section title={t('profile.brand')}>
                <SellerLogo profile={profile} readOnly={readOnly} onSaved={setProfile} />
                <div className="form-grid">
                  <TextFields fields={[['brandColor', 'profile.brandColor', 'text', 'profile.brandColorHint']]} {...props} />
                </div>
              </Section>
            </fieldset>
            {readOnly ? null : (
              <div className="save-bar">
                <button type="submit" disabled={save.busy}>
                  {t('profile.save')}
                </button>
                {save.error && !inPlace ? <ErrorNote error={save.error} /> : null}
                {save.error && inPlace ? <p className="note note-error">{t('profile.fieldMarked')}</p> : null}
                {save.result?.version === profile.version && !save.busy && !save.error ? <Notice>{t('profile.saved', { version: save.result.version })}</Notice> : null}
              </div>
            )}
          </form>
        </>
      ) : null}
    </>
  );
}

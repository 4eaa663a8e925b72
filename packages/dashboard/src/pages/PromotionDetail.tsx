import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import type { Promotion, PromotionBanner, PromotionResponse } from '@billow/contract';
import { api, type Page } from '../api';
import { type useAction, useResource } from '../data';
import { countryName, decimal, when } from '../format';
import { t, type MessageKey } from '../i18n/language';
import { useDraftEditor } from '../draft-editor';
import { useCan } from '../session';
import { CountrySelect } from '../ui/CountrySelect';
import { Checkbox, ErrorNote, Field, Loading, Notice, PageTitle, Section, Select, TextArea } from '../ui/kit';
import { BannerPreview } from './PromotionBanner';
import { GroupPercentFields, type PppGroup } from './PromotionGroups';
import { hardToRead } from './contrast';
import { CHECKS, COLOR_FIELDS, draftOf, LENGTH_FIELDS, overrideRow, patchOf, shownFields, type PromotionDraft } from './promotion-draft';
import type { Plan, Product } from './types';

interface FormProps {
  draft: PromotionDraft;
  setDraft(draft: PromotionDraft): void;
  /** The API's refusal of the last save, for the field it names. */
  errorOf(path: string): string | undefined;
}

function GeneralFields({ draft, setDraft, errorOf }: FormProps) {
  return (
    <div className="form-grid">
      <Field label={t('promotions.name')} required value={draft.name} error={errorOf('name')} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
      <Field label={t('promotions.coupon')} hint={t('promotions.couponHint')} value={draft.couponCode} error={errorOf('couponCode')} onChange={(e) => setDraft({ ...draft, couponCode: e.target.value.toUpperCase() })} />
      <Checkbox label={t('promotion.enabled')} checked={draft.enabled} onChange={(enabled) => setDraft({ ...draft, enabled })} />
    </div>
  );
}

function PlanScope({ draft, setDraft, errorOf, plans }: FormProps & { plans: Plan[] }) {
  const toggle = (identifier: string, on: boolean) => setDraft({ ...draft, plans: on ? [...draft.plans, identifier] : draft.plans.filter((p) => p !== identifier) });
  const error = errorOf('planIdentifiers');
  return (
    <fieldset className="field-group" aria-describedby={error ? 'plan-scope-error' : undefined}>
      <legend>{t('promotion.plans')}</legend>
      <Checkbox label={t('promotion.allPlans')} checked={draft.plans.length === 0} onChange={(all) => all && setDraft({ ...draft, plans: [] })} />
      {plans.map((plan) => (
        <Checkbox key={plan.identifier} label={plan.name} checked={draft.plans.includes(plan.identifier)} onChange={(on) => toggle(plan.identifier, on)} />
      ))}
      {plans.length === 0 ? <p className="hint">{t('promotion.noPublishedPlans')}</p> : null}
      {error ? (
        <small id="plan-scope-error" className="field-error" role="alert">
          {error}
        </small>
      ) : null}
    </fieldset>
  );
}

function OverrideRows({ draft, setDraft, errorOf, readOnly }: FormProps & { readOnly: boolean }) {
  const rows = draft.overrides;
  const update = (index: number, change: Partial<(typeof rows)[number]>) => setDraft({ ...draft, overrides: rows.map((row, i) => (i === index ? { ...row, ...change } : row)) });
  return (
    <>
      <p className="hint">{t('promotion.overridesAbout')}</p>
      {rows.length === 0 ? <p className="muted">{t('promotion.noOverrides')}</p> : null}
      {rows.map((row, index) => (
        <div key={row.key} className="tax-row">
          <CountrySelect label={t('promotion.overrideCountry', { index: index + 1 })} value={row.countryCode} error={errorOf(`countryOverrides[${index}].countryCode`)} onChange={(e) => update(index, { countryCode: e.target.value })} />
          <Field label={t('promotion.overridePercent', { index: index + 1 })} inputMode="numeric" error={errorOf(`countryOverrides[${index}].percentage`)} value={row.percentage} onChange={(e) => update(index, { percentage: e.target.value })} />
          {readOnly ? null : (
            <button type="button" className="secondary" onClick={() => setDraft({ ...draft, overrides: rows.filter((_, i) => i !== index) })}>
              {t('plan.remove')}
              <span className="visually-hidden"> {t('promotion.removeOverride', { country: row.countryCode ? countryName(row.countryCode) : index + 1 })}</span>
            </button>
          )}
        </div>
      ))}
      {readOnly ? null : (
        <button type="button" className="secondary" onClick={() => setDraft({ ...draft, overrides: [...rows, overrideRow()] })}>
          {t('promotion.addOverride')}
        </button>
      )}
    </>
  );
}

const BANNER_LABELS: Record<(typeof COLOR_FIELDS)[number] | (typeof LENGTH_FIELDS)[number], MessageKey> = {
  backgroundColor: 'promotion.backgroundColor',
  fontColor: 'promotion.fontColor',
  highlightFontColor: 'promotion.highlightFontColor',
  fontSize: 'promotion.fontSize',
  borderRadius: 'promotion.borderRadius',
};

function BannerFields({ draft, setDraft, errorOf }: FormProps) {
  const set = (change: Partial<PromotionBanner>) => setDraft({ ...draft, banner: { ...draft.banner, ...change } });
  return (
    <>
      <p className="hint">{t('promotion.placeholders', { country: '{country}', flag: '{country_flag}', code: '{coupon_code}', percent: '{discount_percentage}' })}</p>
      <TextArea label={t('promotion.message')} hint={t('promotion.messageHint')} rows={2} maxLength={1000} error={errorOf('message')} value={draft.message} onChange={(e) => setDraft({ ...draft, message: e.target.value })} />
      <TextArea label={t('promotion.countryMessage')} hint={t('promotion.countryMessageHint', { bold: '<b>…</b>' })} rows={3} maxLength={1000} error={errorOf('banner.countryMessage')} value={draft.banner.countryMessage} onChange={(e) => set({ countryMessage: e.target.value })} />
      <div className="form-grid">
        {[...COLOR_FIELDS, ...LENGTH_FIELDS].map((name) => (
          <Field key={name} label={t(BANNER_LABELS[name])} hint={t(name === 'fontSize' || name === 'borderRadius' ? 'promotion.lengthHint' : 'promotion.colorHint')} error={errorOf(`banner.${name}`)} value={draft.banner[name]} onChange={(e) => set({ [name]: e.target.value })} />
        ))}
        <Select
          label={t('promotion.placement')}
          options={[
            ['top', t('promotion.placementTop')],
            ['bottom', t('promotion.placementBottom')],
          ]}
          value={draft.banner.placement}
          onChange={(e) => set({ placement: e.target.value === 'bottom' ? 'bottom' : 'top' })}
        />
      </div>
      {draft.banner.unStyled
        ? null
        : hardToRead(draft.banner).map(({ field, ratio }) => (
            <p key={field} className="note note-warn" role="status">
              {t('promotion.lowContrast', { field: t(BANNER_LABELS[field]), ratio: decimal(ratio, 1) })}
            </p>
          ))}
      <Checkbox label={t('promotion.unStyled')} checked={draft.banner.unStyled} onChange={(unStyled) => set({ unStyled })} />
      <Checkbox label={t('promotion.addCloseIcon')} checked={draft.banner.addCloseIcon} onChange={(addCloseIcon) => set({ addCloseIcon })} />
    </>
  );
}

function SecurityFields({ draft, setDraft }: FormProps) {
  return (
    <>
      <p className="hint">{t('promotion.securityAbout')}</p>
      {CHECKS.map((check) => (
        <Checkbox key={check} label={t(`promotion.check.${check}`)} checked={draft.security[check]} onChange={(on) => setDraft({ ...draft, security: { ...draft.security, [check]: on } })} />
      ))}
    </>
  );
}

/** What GET /promotions answers a visitor from the chosen country (the server decides), with the banner in the form's style. */
function BuyerPreview({ promotion, banner }: { promotion: Promotion; banner: PromotionBanner }) {
  const [country, setCountry] = useState(promotion.countryOverrides[0]?.countryCode ?? 'IN');
  const answer = useResource(() => api<PromotionResponse>('GET', `/promotion-rules/${encodeURIComponent(promotion.id)}/preview/`, { query: { country } }), [promotion, country]);
  const shown = answer.data;
  return (
    <Section title={t('promotion.buyerGets', { country: countryName(country) })}>
      <div className="form-grid">
        <CountrySelect label={t('promotion.buyerCountry')} value={country} onChange={(e) => setCountry(e.target.value)} />
      </div>
      <ErrorNote error={answer.error} />
      {shown ? (
        <>
          <dl className="facts" data-testid="buyer-gets">
            <dt>{t('promotion.percentage')}</dt>
            <dd>{shown.percentage > 0 ? t('selling.percent', { percent: shown.percentage }) : t('promotion.nothing')}</dd>
            <dt>{t('promotions.coupon')}</dt>
            <dd>{shown.code ? <code>{shown.code}</code> : '—'}</dd>
            <dt>{t('promotion.message')}</dt>
            <dd>{shown.message || '—'}</dd>
          </dl>
          {shown.percentage > 0 ? <BannerPreview banner={banner} answer={shown} /> : <p className="muted">{t('promotion.noBanner')}</p>}
          <p className="hint">{t('promotion.asSaved')}</p>
        </>
      ) : null}
    </Section>
  );
}

export function PromotionDetail() {
  const { id = '' } = useParams();
  const path = `/promotion-rules/${encodeURIComponent(id)}/`;
  const canWrite = useCan('selling');
  const loaded = useResource(async () => {
    const promotion = await api<Promotion>('GET', path);
    const [product, plans, groups] = await Promise.all([
      api<Product>('GET', `/catalog/products/${encodeURIComponent(promotion.productId)}/`),
      api<Page<Plan>>('GET', '/catalog/plans/', { query: { page_size: 100 } }),
      api<{ groups: PppGroup[] }>('GET', '/promotion-rules/ppp-groups/'),
    ]);
    const ofProduct = plans.results.filter((p) => (p.product === product.id || p.product === product.identifier) && p.status !== 'draft' && !p.isArchived);
    return { promotion, product, plans: ofProduct, groups: groups.groups };
  }, [path]);
  const save = (patch: ReturnType<typeof patchOf>) => api<Promotion>('PATCH', path, { body: patch });
  const editor = useDraftEditor({ loaded: loaded.data?.promotion, draftOf, patchOf, shownFields, save });
  const { saved: promotion, draft, setDraft, inPlace, errorOf, submit } = editor;
  const readOnly = !canWrite || editor.save.error?.status === 403 || !!promotion?.archivedOn;
  return (
    <>
      <PageTitle actions={<Link to="/selling">{t('promotion.back')}</Link>}>{promotion?.name ?? t('promotion.one')}</PageTitle>
      <Loading loading={!draft && !loaded.error} />
      <ErrorNote error={loaded.error} />
      {promotion && draft && loaded.data ? (
        <>
          <p className="hint">{t('promotion.about', { product: loaded.data.product.name, changed: when(promotion.modifiedOn) })}</p>
          {readOnly ? <Notice>{t(promotion.archivedOn ? 'promotion.ended' : 'promotion.readOnly')}</Notice> : null}
          <PromotionForm draft={draft} setDraft={setDraft} errorOf={errorOf} readOnly={readOnly} plans={loaded.data.plans} groups={loaded.data.groups} onSubmit={submit} save={editor.save} inPlace={inPlace} />
          <BuyerPreview promotion={promotion} banner={draft.banner} />
        </>
      ) : null}
    </>
  );
}

interface PromotionFormProps extends FormProps {
  readOnly: boolean;
  plans: Plan[];
  groups: PppGroup[];
  onSubmit(event: FormEvent): void;
  save: ReturnType<typeof useAction<[ReturnType<typeof patchOf>], Promotion>>;
  inPlace: boolean;
}

/** Every writable field of the promotion, each part a card of one form; a refusal beside the field it names, any other by the button. */
function PromotionForm({ readOnly, plans, groups, onSubmit, save, inPlace, ...props }: PromotionFormProps) {
  return (
    <form onSubmit={onSubmit} aria-label={t('promotion.form')}>
      <fieldset className="bare" disabled={readOnly}>
        <legend className="visually-hidden">{t('promotion.form')}</legend>
        <Section title={t('promotion.general')}>
          <GeneralFields {...props} />
        </Section>
        <Section title={t('promotion.whoGets')}>
          <PlanScope {...props} plans={plans} />
          <GroupPercentFields groups={groups} values={props.draft.groups} onChange={(values) => props.setDraft({ ...props.draft, groups: values })} errorOf={(i) => props.errorOf(`pppDiscounts[${i}].percentage`) ?? (i === 0 ? props.errorOf('pppDiscounts') : undefined)} />
        </Section>
        <Section title={t('promotion.overrides')}>
          <OverrideRows {...props} readOnly={readOnly} />
        </Section>
        <Section title={t('promotion.banner')}>
          <BannerFields {...props} />
        </Section>
        <Section title={t('promotion.security')}>
          <SecurityFields {...props} />
        </Section>
      </fieldset>
      {readOnly ? null : (
        <div className="save-bar">
          <button type="submit" disabled={save.busy}>
            {t('promotion.save')}
          </button>
          {save.error && !inPlace ? <ErrorNote error={save.error} /> : null}
          {save.error && inPlace ? <p className="note note-error">{t('profile.fieldMarked')}</p> : null}
          {save.result && !save.busy && !save.error ? <Notice>{t('promotion.saved')}</Notice> : null}
        </div>
      )}
    </form>
  );
}

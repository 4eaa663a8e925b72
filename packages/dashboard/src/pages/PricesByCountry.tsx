import { useState } from 'react';
import { api } from '../api';
import { useResource } from '../data';
import { countryName, majorMoney } from '../format';
import { t } from '../i18n/language';
import { CountrySelect } from '../ui/CountrySelect';
import { ErrorNote, Section, Table } from '../ui/kit';
import { chargeOf } from './PlanDetail';

/** What the product offering answers for a country (GET /monetization/product-offering/…?country=). */
interface Offering {
  countryCode: string | null;
  currencyCode: string;
  baseCurrencyCode: string;
  plans: Array<{
    identifier: string;
    name: string;
    price: { currency: string; charges: Array<{ chargePeriod: string; priceData: { amount: number | null } }> } | null;
    originalPrice: Record<string, number>;
  }>;
}

type OfferedPlan = Offering['plans'][number];

const shown = (plan: OfferedPlan) =>
  (plan.price?.charges ?? []).flatMap((c) => (c.priceData.amount === null ? [] : [chargeOf(majorMoney(c.priceData.amount, plan.price?.currency), c.chargePeriod, false)])).join(', ') || '—';

const listed = (plan: OfferedPlan) =>
  Object.entries(plan.originalPrice)
    .map(([period, amount]) => chargeOf(majorMoney(amount, plan.price?.currency), period, false))
    .join(', ') || '—';

/** Location pricing seen as a buyer of a country sees it: the currency sold there and the promotions that apply (decision 0036). */
export function PricesByCountry({ productId }: { productId: string }) {
  const [country, setCountry] = useState('');
  const offering = useResource(
    () => (country ? api<Offering>('GET', `/monetization/product-offering/${encodeURIComponent(productId)}/`, { query: { country } }) : Promise.resolve(null)),
    [productId, country],
  );
  const data = offering.data;
  return (
    <Section title={t('product.pricesByCountry')}>
      <p className="hint">{t('product.pricesByCountryHint')}</p>
      <CountrySelect label={t('product.buyerCountry')} value={country} onChange={(e) => setCountry(e.target.value)} />
      <ErrorNote error={offering.error} />
      {data ? (
        <>
          <p>
            {data.currencyCode === data.baseCurrencyCode
              ? t('product.soldInBase', { country: countryName(data.countryCode), currency: data.currencyCode })
              : t('product.soldInLocal', { country: countryName(data.countryCode), currency: data.currencyCode })}
          </p>
          <Table
            caption={t('product.pricesIn', { country: countryName(data.countryCode) })}
            rows={data.plans}
            rowKey={(p) => p.identifier}
            empty={t('product.noPublishedPlans')}
            columns={[
              { title: t('common.name'), cell: (p) => p.name },
              { title: t('product.buyerPays'), cell: shown },
              { title: t('product.listPrice'), cell: listed },
            ]}
          />
        </>
      ) : null}
    </Section>
  );
}

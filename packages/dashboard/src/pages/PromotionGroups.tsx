import { t } from '../i18n/language';
import { Field } from '../ui/kit';
import { GROUPS } from './promotion-draft';

/** A purchasing-power group as GET /promotion-rules/ppp-groups/ describes it (its countries in the server's words). */
export interface PppGroup {
  group: number;
  description: string;
}

/** The percent off of each of the five price groups, as typed; each described by its countries, each beside its refusal. */
export function GroupPercentFields({ groups, values, onChange, errorOf }: { groups: PppGroup[]; values: string[]; onChange(values: string[]): void; errorOf?(index: number): string | undefined }) {
  return (
    <fieldset className="field-group">
      <legend>{t('promotions.groups')}</legend>
      {GROUPS.map((group, i) => (
        <Field
          key={group}
          label={t('promotions.groupField', { group })}
          inputMode="numeric"
          hint={groups.find((g) => g.group === group)?.description}
          error={errorOf?.(i)}
          value={values[i]}
          onChange={(e) => onChange(values.map((p, j) => (j === i ? e.target.value : p)))}
        />
      ))}
    </fieldset>
  );
}

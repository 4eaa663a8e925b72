import { useRef } from 'react';
import type { SellerProfile } from '@billow/contract';
import { api, uploadFile } from '../api';
import { useAction } from '../data';
import { t } from '../i18n/language';
import { problemText } from '../i18n/problems';
import { Field } from '../ui/kit';

/**
 * The logo: uploaded through the media API to Billow itself, then given to the profile by its
 * fileKey (Billow checks it is a PNG or JPEG of the right size, and serves it at `logoUrl`).
 */
export function SellerLogo({ profile, readOnly, onSaved }: { profile: SellerProfile; readOnly: boolean; onSaved(profile: SellerProfile): void }) {
  const input = useRef<HTMLInputElement>(null);
  const change = useAction(async (file: File | null) => {
    const logoImageKey = file ? await uploadFile(file) : null;
    return api<SellerProfile>('PATCH', '/seller-profile/', { body: { logoImageKey } });
  });
  const perform = (file: File | null) =>
    void change.perform(file).then((saved) => {
      if (input.current) input.current.value = '';
      if (saved) onSaved(saved);
    });
  return (
    <div className="logo-field">
      {profile.logoUrl ? <img src={profile.logoUrl} alt={t('profile.logoNow')} className="logo-current" /> : <p className="muted">{t('profile.noLogo')}</p>}
      {readOnly ? null : (
        <>
          <Field
            ref={input}
            label={profile.logoUrl ? t('profile.replaceLogo') : t('profile.uploadLogo')}
            type="file"
            accept="image/png,image/jpeg"
            hint={t('profile.logoHint')}
            error={change.error ? problemText(change.error) : undefined}
            disabled={change.busy}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) perform(file);
            }}
          />
          {profile.logoUrl ? (
            <button type="button" className="secondary" disabled={change.busy} onClick={() => perform(null)}>
              {t('profile.removeLogo')}
            </button>
          ) : null}
          {change.busy ? <p role="status">{t('media.uploading')}</p> : null}
        </>
      )}
    </div>
  );
}

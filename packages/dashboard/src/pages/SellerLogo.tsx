import { useRef } from 'react';
import type { SellerProfile } from '@billow/contract';
import { api, uploadFile } from '../api';
import { useAction } from '../data';
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
      {profile.logoUrl ? <img src={profile.logoUrl} alt="Your logo as it is now" className="logo-current" /> : <p className="muted">No logo yet.</p>}
      {readOnly ? null : (
        <>
          <Field
            ref={input}
            label={profile.logoUrl ? 'Replace the logo' : 'Upload a logo'}
            type="file"
            accept="image/png,image/jpeg"
            hint="A PNG or JPEG of at most 256 KiB, 16 to 2000 px a side. It is saved at once."
            error={change.error?.detail}
            disabled={change.busy}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) perform(file);
            }}
          />
          {profile.logoUrl ? (
            <button type="button" className="secondary" disabled={change.busy} onClick={() => perform(null)}>
              Remove the logo
            </button>
          ) : null}
          {change.busy ? <p role="status">Uploading…</p> : null}
        </>
      )}
    </div>
  );
}

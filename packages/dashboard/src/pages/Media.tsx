import { useState, type FormEvent } from 'react';
import { uploadFile } from '../api';
import { useAction } from '../data';
import { decimal } from '../format';
import { t, type MessageKey } from '../i18n/language';
import { ActionButton, Badge, ErrorNote, Field, Table } from '../ui/kit';

/** A product image as the API answers it (size and type are Billow's additions, decision 0095). */
export interface StoredImage {
  id: string;
  name: string | null;
  image: string;
  ordering: number;
  thumbnail: boolean;
  enabled: boolean;
  size: number;
  contentType: string;
}

/** A product's or a plan's downloadable file. */
export interface StoredFile {
  id: string;
  name: string;
  downloadUrl: string;
  enabled: boolean;
  size: number;
  contentType: string;
}

/** What product images may be: the server refuses anything else in its own words. */
const IMAGE_TYPES = 'image/png,image/jpeg,image/gif,image/webp,image/avif';

const KINDS: Record<string, MessageKey> = {
  'application/pdf': 'media.pdf',
  'application/zip': 'media.zip',
  'application/x-zip-compressed': 'media.zip',
  'application/gzip': 'media.gzip',
  'application/octet-stream': 'media.file',
  'text/plain': 'media.text',
  'text/csv': 'media.csv',
  'image/svg+xml': 'media.svg',
};

/** A MIME type in words: "PDF document", "PNG image", "MP4 video". */
export function kindInWords(contentType: string): string {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const known = KINDS[type];
  if (known) return t(known);
  const [family = '', sub = ''] = type.split('/');
  const name = sub.replace(/^(x-|vnd\.)/, '').split(/[.+-]/)[0]!.toUpperCase();
  return name ? t('media.kind', { name, family }) : t('media.file');
}

/** Bytes in words: "812 bytes", "14 KB", "2.3 MB". */
export function sizeInWords(bytes: number): string {
  if (bytes < 1024) return t('media.bytes', { count: bytes });
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return t('media.size', { value: decimal(value, value >= 10 ? 0 : 1), unit: units[unit]! });
}

/** Picks a file, uploads it to Billow (`POST /media/upload/`), then hands its fileKey to `attach`. */
export function UploadForm({ label, submitLabel, hint, accept, attach, onDone }: { label: string; submitLabel: string; hint: string; accept?: string; attach(fileKey: string): Promise<unknown>; onDone(): void }) {
  const [file, setFile] = useState<File | null>(null);
  const [generation, setGeneration] = useState(0);
  const send = useAction(async (chosen: File) => attach(await uploadFile(chosen)));
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) return;
    if ((await send.perform(file)) !== undefined) {
      setFile(null);
      setGeneration((g) => g + 1);
      onDone();
    }
  }
  return (
    <form className="row-form" onSubmit={submit} aria-label={submitLabel}>
      <Field key={generation} label={label} hint={hint} type="file" accept={accept} required onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
      <button type="submit" disabled={send.busy}>
        {send.busy ? t('media.uploading') : submitLabel}
      </button>
      <ErrorNote error={send.error} />
    </form>
  );
}

interface ImageActions {
  update(image: StoredImage, body: object): Promise<unknown>;
  remove(image: StoredImage): Promise<unknown>;
}

/** One image: its picture, its description (the alt text pages give it), main-image mark, and the seller's buttons. */
function ImageCard({ image, previous, next, canWrite, actions, onDone }: { image: StoredImage; previous?: StoredImage; next?: StoredImage; canWrite: boolean; actions: ImageActions; onDone(): void }) {
  const [name, setName] = useState(image.name ?? '');
  const change = useAction(async (run: () => Promise<unknown>) => run());
  const label = image.name || t('media.thisImage');
  const act = (run: () => Promise<unknown>) => void change.perform(run).then((r) => r !== undefined && onDone());
  const swap = (other: StoredImage) => act(async () => {
    await actions.update(image, { ordering: other.ordering });
    return actions.update(other, { ordering: image.ordering });
  });
  return (
    <li className="gallery-item">
      <figure>
        <img src={image.image} alt={image.name ?? ''} width={160} height={120} loading="lazy" />
        <figcaption>
          {image.thumbnail ? <Badge tone="good">{t('media.mainImage')}</Badge> : null} <span className="muted">{kindInWords(image.contentType)}, {sizeInWords(image.size)}</span>
        </figcaption>
      </figure>
      {canWrite ? (
        <>
          <form
            className="stack"
            aria-label={t('media.describe', { label })}
            onSubmit={(event) => {
              event.preventDefault();
              act(() => actions.update(image, { name: name.trim() === '' ? null : name.trim() }));
            }}
          >
            <Field label={t('media.description')} hint={t('media.descriptionHint')} maxLength={255} value={name} onChange={(e) => setName(e.target.value)} />
            <button type="submit" className="secondary" disabled={change.busy}>
              {t('media.save')}<span className="visually-hidden"> {t('media.descriptionOf', { label })}</span>
            </button>
          </form>
          <div className="actions">
            {!image.thumbnail ? (
              <button type="button" className="secondary" disabled={change.busy} onClick={() => act(() => actions.update(image, { thumbnail: true }))}>
                {t('media.makeMain')}<span className="visually-hidden"> ({label})</span>
              </button>
            ) : null}
            {previous ? (
              <button type="button" className="secondary" disabled={change.busy} onClick={() => swap(previous)}>
                {t('media.earlier')}<span className="visually-hidden"> ({label})</span>
              </button>
            ) : null}
            {next ? (
              <button type="button" className="secondary" disabled={change.busy} onClick={() => swap(next)}>
                {t('media.later')}<span className="visually-hidden"> ({label})</span>
              </button>
            ) : null}
            <button type="button" className="danger" disabled={change.busy} onClick={() => act(() => actions.remove(image))}>
              {t('plan.remove')}<span className="visually-hidden"> {label}</span>
            </button>
          </div>
          <ErrorNote error={change.error} />
        </>
      ) : null}
    </li>
  );
}

/** A product's images in their order, with their thumbnails; the seller uploads, describes, orders and removes them. */
export function ImageGallery({ images, canWrite, actions, onDone }: { images: StoredImage[]; canWrite: boolean; actions: ImageActions; onDone(): void }) {
  const ordered = [...images].sort((a, b) => a.ordering - b.ordering);
  if (ordered.length === 0) return <p className="empty">{t('media.noImages')}</p>;
  return (
    <ul className="gallery" aria-label={t('product.images')}>
      {ordered.map((image, index) => (
        <ImageCard key={`${image.id}-${image.name ?? ''}`} image={image} previous={ordered[index - 1]} next={ordered[index + 1]} canWrite={canWrite} actions={actions} onDone={onDone} />
      ))}
    </ul>
  );
}

export const IMAGE_UPLOAD = {
  accept: IMAGE_TYPES,
  hint: 'PNG, JPEG, GIF, WebP or AVIF, up to 10 MB. The first image is the main one until you choose another.',
};

/** Downloadable files: name (a link that downloads it), kind, size, whether buyers can download it; turn downloads off or on (when `setEnabled` is given), remove. */
export function FileTable({ caption, files, canWrite, remove, setEnabled, onDone }: { caption: string; files: StoredFile[]; canWrite: boolean; remove(file: StoredFile): Promise<unknown>; setEnabled?(file: StoredFile, enabled: boolean): Promise<unknown>; onDone(): void }) {
  const actions = (f: StoredFile) => (
    <div className="actions">
      {setEnabled ? <ActionButton label={f.enabled ? t('media.turnOff') : t('media.turnOn')} hidden={t('media.downloadsOf', { name: f.name })} run={() => setEnabled(f, !f.enabled)} onDone={onDone} /> : null}
      <ActionButton label={t('plan.remove')} hidden={f.name} tone="danger" run={() => remove(f)} onDone={onDone} />
    </div>
  );
  return (
    <Table
      caption={caption}
      rows={files}
      rowKey={(f) => f.id}
      empty={t('media.noFiles')}
      columns={[
        { title: t('common.name'), cell: (f) => <a href={f.downloadUrl}>{f.name}</a> },
        { title: t('catalog.type'), cell: (f) => kindInWords(f.contentType) },
        { title: t('media.sizeTitle'), numeric: true, nowrap: true, cell: (f) => sizeInWords(f.size) },
        { title: t('media.downloadable'), cell: (f) => (f.enabled ? t('common.yes') : t('media.turnedOff')) },
        ...(canWrite ? [{ title: t('common.actions'), cell: actions }] : []),
      ]}
    />
  );
}

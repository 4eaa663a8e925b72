import { useState, type FormEvent } from 'react';
import { uploadFile } from '../api';
import { useAction } from '../data';
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

const KINDS: Record<string, string> = {
  'application/pdf': 'PDF document',
  'application/zip': 'ZIP archive',
  'application/x-zip-compressed': 'ZIP archive',
  'application/gzip': 'Compressed archive',
  'application/octet-stream': 'File',
  'text/plain': 'Text',
  'text/csv': 'Spreadsheet (CSV)',
  'image/svg+xml': 'SVG image',
};

/** A MIME type in words: "PDF document", "PNG image", "MP4 video". */
export function kindInWords(contentType: string): string {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (KINDS[type]) return KINDS[type];
  const [family, sub = ''] = type.split('/');
  const name = sub.replace(/^(x-|vnd\.)/, '').split(/[.+-]/)[0]!.toUpperCase();
  const noun = { image: 'image', video: 'video', audio: 'audio', text: 'text', font: 'font' }[family ?? ''] ?? 'file';
  return name ? `${name} ${noun}` : 'File';
}

/** Bytes in words: "812 bytes", "14 KB", "2.3 MB". */
export function sizeInWords(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 10 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
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
        {send.busy ? 'Uploading…' : submitLabel}
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
  const label = image.name || 'this image';
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
          {image.thumbnail ? <Badge tone="good">Main image</Badge> : null} <span className="muted">{kindInWords(image.contentType)}, {sizeInWords(image.size)}</span>
        </figcaption>
      </figure>
      {canWrite ? (
        <>
          <form
            className="stack"
            aria-label={`Describe ${label}`}
            onSubmit={(event) => {
              event.preventDefault();
              act(() => actions.update(image, { name: name.trim() === '' ? null : name.trim() }));
            }}
          >
            <Field label="Description" hint="Read aloud in place of the image" maxLength={255} value={name} onChange={(e) => setName(e.target.value)} />
            <button type="submit" className="secondary" disabled={change.busy}>
              Save<span className="visually-hidden"> the description of {label}</span>
            </button>
          </form>
          <div className="actions">
            {!image.thumbnail ? (
              <button type="button" className="secondary" disabled={change.busy} onClick={() => act(() => actions.update(image, { thumbnail: true }))}>
                Make main image<span className="visually-hidden"> ({label})</span>
              </button>
            ) : null}
            {previous ? (
              <button type="button" className="secondary" disabled={change.busy} onClick={() => swap(previous)}>
                Move earlier<span className="visually-hidden"> ({label})</span>
              </button>
            ) : null}
            {next ? (
              <button type="button" className="secondary" disabled={change.busy} onClick={() => swap(next)}>
                Move later<span className="visually-hidden"> ({label})</span>
              </button>
            ) : null}
            <button type="button" className="danger" disabled={change.busy} onClick={() => act(() => actions.remove(image))}>
              Remove<span className="visually-hidden"> {label}</span>
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
  if (ordered.length === 0) return <p className="empty">No images yet.</p>;
  return (
    <ul className="gallery" aria-label="Images">
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
      {setEnabled ? <ActionButton label={f.enabled ? 'Turn off' : 'Turn on'} hidden={`downloads of ${f.name}`} run={() => setEnabled(f, !f.enabled)} onDone={onDone} /> : null}
      <ActionButton label="Remove" hidden={f.name} tone="danger" run={() => remove(f)} onDone={onDone} />
    </div>
  );
  return (
    <Table
      caption={caption}
      rows={files}
      rowKey={(f) => f.id}
      empty="No files yet."
      columns={[
        { title: 'Name', cell: (f) => <a href={f.downloadUrl}>{f.name}</a> },
        { title: 'Type', cell: (f) => kindInWords(f.contentType) },
        { title: 'Size', numeric: true, nowrap: true, cell: (f) => sizeInWords(f.size) },
        { title: 'Downloadable', cell: (f) => (f.enabled ? 'Yes' : 'Turned off') },
        ...(canWrite ? [{ title: 'Actions', cell: actions }] : []),
      ]}
    />
  );
}

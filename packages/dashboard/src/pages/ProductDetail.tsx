import { Link, useParams } from 'react-router';
import { api } from '../api';
import { useResource } from '../data';
import { day } from '../format';
import { useCan } from '../session';
import { ErrorNote, Loading, PageTitle, Section } from '../ui/kit';
import { FileTable, IMAGE_UPLOAD, ImageGallery, UploadForm, type StoredFile, type StoredImage } from './Media';
import type { Product } from './types';

interface ProductView extends Product {
  images: StoredImage[];
  files: StoredFile[];
  plans: string[];
}

const TAX_CODES: Record<string, string> = {
  saas: 'Software as a service',
  saas_business: 'Software for businesses',
  software: 'Downloadable software',
  ebook: 'E-book',
  eservice: 'Electronic service',
  training: 'Training',
};

/** A product: what it is, its images (the main one is what buyers see) and its downloadable files (decision 0095). */
export function ProductDetail() {
  const { id = '' } = useParams();
  const path = `/catalog/products/${encodeURIComponent(id)}`;
  const view = useResource(() => api<ProductView>('GET', `${path}/`), [path]);
  const canWrite = useCan('catalog');
  const product = view.data;
  const images = {
    update: (image: StoredImage, body: object) => api('PATCH', `${path}/image/${image.id}/`, { body }),
    remove: (image: StoredImage) => api('DELETE', `${path}/image/${image.id}/`),
  };
  return (
    <>
      <PageTitle>{product?.name ?? 'Product'}</PageTitle>
      <p>
        <Link to="/catalog">Catalog</Link>
      </p>
      <ErrorNote error={view.error} />
      <Loading loading={view.loading && !product} />
      {product ? (
        <>
          <dl className="facts">
            <dt>Identifier</dt>
            <dd>
              <code>{product.identifier}</code>
            </dd>
            <dt>Tax code</dt>
            <dd>{TAX_CODES[product.taxCode] ?? product.taxCode}</dd>
            <dt>Description</dt>
            <dd>{product.description || '—'}</dd>
            <dt>Published plans</dt>
            <dd>{product.plans.length > 0 ? product.plans.map((p, i) => <span key={p}>{i > 0 ? ', ' : ''}<Link to={`/catalog/plans/${encodeURIComponent(p)}`}>{p}</Link></span>) : 'None yet'}</dd>
            <dt>Created</dt>
            <dd>{day(product.createdOn)}</dd>
          </dl>
          <Section title="Images">
            <ImageGallery images={product.images} canWrite={canWrite} actions={images} onDone={view.reload} />
            {canWrite ? (
              <UploadForm label="Image" submitLabel="Upload the image" {...IMAGE_UPLOAD} attach={(fileKey) => api('PATCH', `${path}/`, { body: { imageKeys: [fileKey] } })} onDone={view.reload} />
            ) : null}
          </Section>
          <Section title="Downloadable files">
            <FileTable
              caption="Files of this product"
              files={product.files}
              canWrite={canWrite}
              remove={(file) => api('DELETE', `${path}/file/${file.id}/`)}
              setEnabled={(file, enabled) => api('PATCH', `${path}/file/${file.id}/`, { body: { enabled } })}
              onDone={view.reload}
            />
            {canWrite ? (
              <UploadForm label="File" submitLabel="Upload the file" hint="Any kind of file: a manual, an installer, a licence text." attach={(fileKey) => api('PATCH', `${path}/`, { body: { fileKeys: [fileKey] } })} onDone={view.reload} />
            ) : null}
          </Section>
        </>
      ) : null}
    </>
  );
}

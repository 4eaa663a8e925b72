import { Link, useParams } from 'react-router';
import { api } from '../api';
import { useResource } from '../data';
import { day } from '../format';
import { useCan } from '../session';
import { ErrorNote, Loading, PageTitle, Section } from '../ui/kit';
import { FileTable, IMAGE_UPLOAD, ImageGallery, UploadForm, type StoredFile, type StoredImage } from './Media';
import { t } from '../i18n/language';
import { taxCodeWords } from './Catalog';
import { PricesByCountry } from './PricesByCountry';
import type { Product } from './types';

interface ProductView extends Product {
  images: StoredImage[];
  files: StoredFile[];
  plans: string[];
}

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
      <PageTitle>{product?.name ?? t('product.one')}</PageTitle>
      <p>
        <Link to="/catalog">{t('catalog.title')}</Link>
      </p>
      <ErrorNote error={view.error} />
      <Loading loading={view.loading && !product} />
      {product ? (
        <>
          <dl className="facts">
            <dt>{t('catalog.identifier')}</dt>
            <dd>
              <code>{product.identifier}</code>
            </dd>
            <dt>{t('catalog.taxCode')}</dt>
            <dd>{taxCodeWords(product.taxCode)}</dd>
            <dt>{t('product.description')}</dt>
            <dd>{product.description || '—'}</dd>
            <dt>{t('product.publishedPlans')}</dt>
            <dd>{product.plans.length > 0 ? product.plans.map((p, i) => <span key={p}>{i > 0 ? ', ' : ''}<Link to={`/catalog/plans/${encodeURIComponent(p)}`}>{p}</Link></span>) : t('product.noneYet')}</dd>
            <dt>{t('orders.created')}</dt>
            <dd>{day(product.createdOn)}</dd>
          </dl>
          <PricesByCountry productId={product.id} />
          <Section title={t('product.images')}>
            <ImageGallery images={product.images} canWrite={canWrite} actions={images} onDone={view.reload} />
            {canWrite ? (
              <UploadForm label={t('product.image')} submitLabel={t('product.uploadImage')} {...IMAGE_UPLOAD} hint={t('media.imageHint')} attach={(fileKey) => api('PATCH', `${path}/`, { body: { imageKeys: [fileKey] } })} onDone={view.reload} />
            ) : null}
          </Section>
          <Section title={t('product.files')}>
            <FileTable
              caption={t('product.filesCaption')}
              files={product.files}
              canWrite={canWrite}
              remove={(file) => api('DELETE', `${path}/file/${file.id}/`)}
              setEnabled={(file, enabled) => api('PATCH', `${path}/file/${file.id}/`, { body: { enabled } })}
              onDone={view.reload}
            />
            {canWrite ? (
              <UploadForm label={t('product.file')} submitLabel={t('product.uploadFile')} hint={t('product.fileHint')} attach={(fileKey) => api('PATCH', `${path}/`, { body: { fileKeys: [fileKey] } })} onDone={view.reload} />
            ) : null}
          </Section>
        </>
      ) : null}
    </>
  );
}

/** What other folders may read of the catalog, with their own executor (inside their own transactions). */
export { entitlementFeatureRows, listEntitlements } from './entitlements/repo.js';
export { findFeature, findFeatures, findFeaturesById } from './features/repo.js';
export { filesOf, findPlan, findPlanById, findVersion, findVersionById, ownersOfPrices, publishedPlansOfProduct } from './plans/repo.js';
export { planChoices, type PlanChoice } from './plans/choices.js';
export { enabledPrice, findPrice, listPrices, publishedPaidPrices, storedPricesByIds, toStored } from './prices/repo.js';
export { filesOf as productFilesOf, findProduct, imagesOf, settingsCurrency, type ProductImageRow } from './products/repo.js';
export { productMainImage, productViews } from './products/lookup.js';
export type { ImageUrls } from './products/view.js';
export { subscribedRows, subscribedRowsFromJson, type SubscribedRows } from './repo.js';

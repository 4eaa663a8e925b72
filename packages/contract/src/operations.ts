import { ApiKey, ApiKeyCreate, ApiKeyList, AuditLog, AuditLogQuery, CreatedApiKey, Invitation, InvitationList, Member, MemberInvite, MemberList, MemberUpdate } from './accounts.js';
import { AnalyticsSubscribersQuery, SubscriberSeries } from './analytics-subscribers.js';
import { AnalyticsCashQuery, AnalyticsMovementsQuery, AnalyticsMrrQuery, AnalyticsSettings, AnalyticsSettingsUpdate, CashSeries, MrrMovementList, MrrSeries } from './analytics.js';
import { CatalogListQuery, Feature, FeatureCreate, FeatureList, FeatureUpdate, Plan, PlanCreate, PlanCurrencyPath, PlanCurrencyPriceInput, PlanEntitlementList, PlanEntitlementPatch, PlanEntitlementsCreate, PlanFile, PlanFileUpdate, PlanList, PlanPath, PlanPriceList, PlanPricesBulk, PlanPricesResult, PlanPublish, PlanPublished, PlanUpdate, ProductCreate, ProductFile, ProductFileUpdate, ProductImage, ProductImageUpdate, ProductList, ProductSettings, ProductSettingsUpdate, ProductUpdate, ProductWithPlans, VersionPageQuery, VersionQuery } from './catalog.js';
import { CheckoutSessionCreate, CheckoutSessionCreated, CheckoutSessionDetail, CheckoutSessionEventList, CheckoutSessionList, CheckoutSessionListQuery, CheckoutSessionPath } from './checkout.js';
import { ChargeCreate, ChargeRecord, Subscription, SubscriptionCancel, SubscriptionCreate, SubscriptionCreated, SubscriptionList, SubscriptionListQuery, SubscriptionUpdate, SubscriptionVersionCounts, SubscriptionVersionCountsQuery } from './commerce.js';
import { PageQuery } from './common.js';
import { CreditNote, CreditNoteList, CreditNoteListQuery, CreditNotePath } from './credit-notes.js';
import { Customer, CustomerArchiveQuery, CustomerCreate, CustomerEventList, CustomerLicenseList, CustomerList, CustomerListQuery, CustomerPath, CustomerUpdate } from './customers.js';
import { Discount, DiscountCreate, DiscountList, DiscountListQuery, DiscountPath } from './discounts.js';
import { CheckEntitlementsResponse, CustomerChangesPath, EntitlementChangeEvent, EntitlementChangeStream, EntitlementsQuery, ReportEventRequest, ReportEventResponse, ReportUsageBatchRequest, ReportUsageBatchResponse, ReportUsageRequest, ReportUsageResponse } from './edge.js';
import { CustomerLicenseInstancePath, LicenseActivate, LicenseActivation, LicenseDeactivate, LicenseDeactivation, LicenseInstanceFreed, LicenseValidate, LicenseValidation } from './licenses.js';
import { EmailSettings, EmailSettingsUpdate, Inbox } from './mail.js';
import { MediaFileForm, MediaFileReceived, MediaUpload, MediaUploadCreate } from './media.js';
import { ProductOffering, ProductOfferingPath, ProductOfferingQuery } from './monetization.js';
import { DocumentQuery, Invoice, InvoiceList, InvoiceListQuery, InvoicePath, Order, OrderEventList, OrderList, OrderListQuery, OrderPath, Refund, RefundCreate, RefundList, RefundListQuery, RefundPath, SubscriptionChangePreview, TransactionList, TransactionListQuery, UpcomingInvoice } from './orders.js';
import { Overview } from './overview.js';
import { PartnerOrganization, PartnerOrganizationCreate, PartnerOrganizationList, PartnerOrganizationListQuery } from './partner.js';
import { ApiKeyPath, BinaryFile, FeaturePath, MailAttachmentPath, NoContent, PartnerExternalIdPath, PartnerOrganizationPath, PlanEntitlementUpdated, PlanFeaturePath, PlanFilePath, ProductFilePath, ProductImagePath, ProductPath, SubscriptionCancelled, SubscriptionChanged, SubscriptionPath, TeamPath } from './paths.js';
import { PaymentMethod, PaymentMethodCreate, PaymentMethodList, PaymentMethodListQuery, PaymentMethodPath, PaymentMethodSetDefault } from './payments.js';
import { PortalSessionCreate, PortalSessionCreated } from './portal.js';
import { PppGroupList, Promotion, PromotionCreate, PromotionList, PromotionListQuery, PromotionPath, PromotionPreviewQuery, PromotionQuery, PromotionResponse, PromotionUpdate } from './promotions.js';
import { PaymentProviderSet, PaymentProviderSettings, StripePaymentMethodAttach } from './providers.js';
import { SellerProfile, SellerProfileUpdate } from './seller-profile.js';
import { TestClock, TestClockAdvance, TestClockAttach, TestClockCreate, TestClockInvoiceList, TestClockList, TestClockListQuery, TestClockPath } from './test-clocks.js';
import { WebhookEndpoint, WebhookEndpointCreate, WebhookEndpointList, WebhookEndpointListQuery, WebhookEndpointPath, WebhookEndpointUpdate, WebhookEndpointWithSecret, WebhookLogDetail, WebhookLogList, WebhookLogListQuery, WebhookLogPath, WebhookQueued, WebhookReplay, WebhookSecretRotation } from './webhooks.js';
import type { TSchema } from 'typebox';

/** Which credential an operation takes: a server key, a server or a client (publishable) key, the partner key, or none. */
export type OperationAuth = 'server' | 'serverOrClient' | 'partner' | 'public';

/**
 * One operation of the API as the server declares it: its method, its path below `/api/v1`
 * (`{name}` for a path parameter), the schemas of its path parameters, query and body, and
 * the status and schema of its success answer (BinaryFile: bytes; NoContent: nothing).
 * The schemas are the very objects the server's routes validate and serialize with
 * (packages/server/test/contract-operations.test.ts), so a client typed from them cannot drift.
 */
export interface Operation {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  status: number;
  response: TSchema;
  /** A stream's messages: the answer is a server-sent event stream whose every `data:` is one of these. */
  events?: TSchema;
  auth: OperationAuth;
}

/** Keeps an operation's literal types (its path and method above all), from which the SDK derives its signatures. */
const op = <const O extends Operation>(operation: O): O => operation;

/** Every operation Billow serves under /api/v1, by the name the SDK gives it (`customers.create`). */
export const operations = {
  media: {
    createUpload: op({ method: 'POST', path: '/media/', body: MediaUploadCreate, status: 200, response: MediaUpload, auth: 'server' }),
    upload: op({ method: 'POST', path: '/media/upload/', body: MediaFileForm, status: 201, response: MediaFileReceived, auth: 'server' }),
  },
  catalog: {
    products: {
      files: {
        update: op({ method: 'PATCH', path: '/catalog/products/{product_pk}/file/{pk}/', params: ProductImagePath, body: ProductFileUpdate, status: 200, response: ProductFile, auth: 'server' }),
        delete: op({ method: 'DELETE', path: '/catalog/products/{product_pk}/file/{pk}/', params: ProductImagePath, status: 204, response: NoContent, auth: 'server' }),
        download: op({ method: 'GET', path: '/catalog/products/{product_pk}/file/{pk}/download/', params: ProductFilePath, status: 302, response: BinaryFile, auth: 'public' }),
      },
      list: op({ method: 'GET', path: '/catalog/products/', query: CatalogListQuery, status: 200, response: ProductList, auth: 'serverOrClient' }),
      create: op({ method: 'POST', path: '/catalog/products/', body: ProductCreate, status: 201, response: ProductWithPlans, auth: 'server' }),
      retrieve: op({ method: 'GET', path: '/catalog/products/{pk}/', params: ProductPath, status: 200, response: ProductWithPlans, auth: 'serverOrClient' }),
      update: op({ method: 'PATCH', path: '/catalog/products/{pk}/', params: ProductPath, body: ProductUpdate, status: 200, response: ProductWithPlans, auth: 'server' }),
      archive: op({ method: 'DELETE', path: '/catalog/products/{pk}/', params: ProductPath, status: 204, response: NoContent, auth: 'server' }),
      settings: {
        retrieve: op({ method: 'GET', path: '/catalog/products/{pk}/settings/', params: ProductPath, status: 200, response: ProductSettings, auth: 'serverOrClient' }),
        update: op({ method: 'PATCH', path: '/catalog/products/{pk}/settings/', params: ProductPath, body: ProductSettingsUpdate, status: 200, response: ProductSettings, auth: 'server' }),
      },
      images: {
        update: op({ method: 'PATCH', path: '/catalog/products/{product_pk}/image/{pk}/', params: ProductImagePath, body: ProductImageUpdate, status: 200, response: ProductImage, auth: 'server' }),
        delete: op({ method: 'DELETE', path: '/catalog/products/{product_pk}/image/{pk}/', params: ProductImagePath, status: 204, response: NoContent, auth: 'server' }),
      },
    },
    features: {
      list: op({ method: 'GET', path: '/catalog/features/', query: CatalogListQuery, status: 200, response: FeatureList, auth: 'serverOrClient' }),
      create: op({ method: 'POST', path: '/catalog/features/', body: FeatureCreate, status: 201, response: Feature, auth: 'server' }),
      retrieve: op({ method: 'GET', path: '/catalog/features/{pk}/', params: FeaturePath, status: 200, response: Feature, auth: 'serverOrClient' }),
      update: op({ method: 'PATCH', path: '/catalog/features/{pk}/', params: FeaturePath, body: FeatureUpdate, status: 200, response: Feature, auth: 'server' }),
      archive: op({ method: 'DELETE', path: '/catalog/features/{pk}/', params: FeaturePath, status: 204, response: NoContent, auth: 'server' }),
    },
    plans: {
      list: op({ method: 'GET', path: '/catalog/plans/', query: PageQuery, status: 200, response: PlanList, auth: 'serverOrClient' }),
      create: op({ method: 'POST', path: '/catalog/plans/', body: PlanCreate, status: 201, response: Plan, auth: 'server' }),
      retrieve: op({ method: 'GET', path: '/catalog/plans/{identifier}/', params: PlanPath, query: VersionQuery, status: 200, response: Plan, auth: 'serverOrClient' }),
      update: op({ method: 'PATCH', path: '/catalog/plans/{identifier}/', params: PlanPath, query: VersionQuery, body: PlanUpdate, status: 200, response: Plan, auth: 'server' }),
      archive: op({ method: 'DELETE', path: '/catalog/plans/{identifier}/', params: PlanPath, status: 204, response: NoContent, auth: 'server' }),
      publish: op({ method: 'POST', path: '/catalog/plans/{identifier}/publish/', params: PlanPath, body: PlanPublish, status: 200, response: PlanPublished, auth: 'server' }),
      discardDraft: op({ method: 'DELETE', path: '/catalog/plans/{identifier}/discard/', params: PlanPath, status: 204, response: NoContent, auth: 'server' }),
      versions: op({ method: 'GET', path: '/catalog/plans/{identifier}/versions/', params: PlanPath, query: PageQuery, status: 200, response: PlanList, auth: 'serverOrClient' }),
      prices: {
        list: op({ method: 'GET', path: '/catalog/plans/{identifier}/prices/', params: PlanPath, query: VersionPageQuery, status: 200, response: PlanPriceList, auth: 'serverOrClient' }),
        setMany: op({ method: 'POST', path: '/catalog/plans/{identifier}/prices/bulk/', params: PlanPath, body: PlanPricesBulk, status: 200, response: PlanPricesResult, auth: 'server' }),
        set: op({ method: 'PUT', path: '/catalog/plans/{identifier}/prices/{currency}/', params: PlanCurrencyPath, body: PlanCurrencyPriceInput, status: 200, response: PlanPricesResult, auth: 'server' }),
        delete: op({ method: 'DELETE', path: '/catalog/plans/{identifier}/prices/{currency}/', params: PlanCurrencyPath, status: 200, response: PlanPricesResult, auth: 'server' }),
      },
      features: {
        list: op({ method: 'GET', path: '/catalog/plans/{identifier}/features/', params: PlanPath, query: VersionPageQuery, status: 200, response: PlanEntitlementList, auth: 'serverOrClient' }),
        add: op({ method: 'POST', path: '/catalog/plans/{identifier}/features/', params: PlanPath, body: PlanEntitlementsCreate, status: 201, response: Plan, auth: 'server' }),
        update: op({ method: 'PATCH', path: '/catalog/plans/{identifier}/features/{feature_id}/', params: PlanFeaturePath, body: PlanEntitlementPatch, status: 200, response: PlanEntitlementUpdated, auth: 'server' }),
        remove: op({ method: 'DELETE', path: '/catalog/plans/{identifier}/features/{feature_id}/', params: PlanFeaturePath, status: 204, response: NoContent, auth: 'server' }),
      },
      files: {
        update: op({ method: 'PATCH', path: '/catalog/plans/{identifier}/file/{pk}/', params: PlanFilePath, body: PlanFileUpdate, status: 200, response: PlanFile, auth: 'server' }),
        delete: op({ method: 'DELETE', path: '/catalog/plans/{identifier}/file/{pk}/', params: PlanFilePath, status: 204, response: NoContent, auth: 'server' }),
        download: op({ method: 'GET', path: '/catalog/plans/{identifier}/file/{pk}/download/', params: PlanFilePath, status: 302, response: BinaryFile, auth: 'public' }),
      },
    },
  },
  charges: {
    create: op({ method: 'POST', path: '/charges/', body: ChargeCreate, status: 201, response: ChargeRecord, auth: 'server' }),
  },
  subscriptions: {
    list: op({ method: 'GET', path: '/subscriptions/', query: SubscriptionListQuery, status: 200, response: SubscriptionList, auth: 'serverOrClient' }),
    versionCounts: op({ method: 'GET', path: '/subscriptions/versions/', query: SubscriptionVersionCountsQuery, status: 200, response: SubscriptionVersionCounts, auth: 'server' }),
    create: op({ method: 'POST', path: '/subscriptions/create/', body: SubscriptionCreate, status: 201, response: SubscriptionCreated, auth: 'server' }),
    retrieve: op({ method: 'GET', path: '/subscriptions/{subscriptionId}/', params: SubscriptionPath, status: 200, response: Subscription, auth: 'serverOrClient' }),
    upcomingInvoice: op({ method: 'GET', path: '/subscriptions/{subscriptionId}/upcoming-invoice/', params: SubscriptionPath, status: 200, response: UpcomingInvoice, auth: 'server' }),
    update: op({ method: 'POST', path: '/subscriptions/{subscriptionId}/update/', params: SubscriptionPath, body: SubscriptionUpdate, status: 200, response: SubscriptionChanged, auth: 'server' }),
    previewUpdate: op({ method: 'POST', path: '/subscriptions/{subscriptionId}/update/preview/', params: SubscriptionPath, body: SubscriptionUpdate, status: 200, response: SubscriptionChangePreview, auth: 'server' }),
    cancel: op({ method: 'POST', path: '/subscriptions/{subscriptionId}/cancel/', params: SubscriptionPath, body: SubscriptionCancel, status: 200, response: SubscriptionCancelled, auth: 'server' }),
  },
  customers: {
    list: op({ method: 'GET', path: '/customers/', query: CustomerListQuery, status: 200, response: CustomerList, auth: 'server' }),
    create: op({ method: 'POST', path: '/customers/', body: CustomerCreate, status: 201, response: Customer, auth: 'server' }),
    retrieve: op({ method: 'GET', path: '/customers/{customerId}/', params: CustomerPath, status: 200, response: Customer, auth: 'server' }),
    events: op({ method: 'GET', path: '/customers/{customerId}/events/', params: CustomerPath, query: PageQuery, status: 200, response: CustomerEventList, auth: 'server' }),
    licenses: op({ method: 'GET', path: '/customers/{customerId}/licenses/', params: CustomerPath, status: 200, response: CustomerLicenseList, auth: 'server' }),
    update: op({ method: 'PATCH', path: '/customers/{customerId}/', params: CustomerPath, body: CustomerUpdate, status: 200, response: Customer, auth: 'server' }),
    archive: op({ method: 'DELETE', path: '/customers/{customerId}/', params: CustomerPath, query: CustomerArchiveQuery, status: 204, response: NoContent, auth: 'server' }),
  },
  testClocks: {
    attachCustomer: op({ method: 'POST', path: '/test-clocks/{id}/customers/', params: TestClockPath, body: TestClockAttach, status: 200, response: Customer, auth: 'server' }),
    create: op({ method: 'POST', path: '/test-clocks/', body: TestClockCreate, status: 201, response: TestClock, auth: 'server' }),
    list: op({ method: 'GET', path: '/test-clocks/', query: TestClockListQuery, status: 200, response: TestClockList, auth: 'server' }),
    retrieve: op({ method: 'GET', path: '/test-clocks/{id}/', params: TestClockPath, status: 200, response: TestClock, auth: 'server' }),
    invoices: op({ method: 'GET', path: '/test-clocks/{id}/invoices/', params: TestClockPath, query: TestClockListQuery, status: 200, response: TestClockInvoiceList, auth: 'server' }),
    advance: op({ method: 'POST', path: '/test-clocks/{id}/advance/', params: TestClockPath, body: TestClockAdvance, status: 200, response: TestClock, auth: 'server' }),
    delete: op({ method: 'DELETE', path: '/test-clocks/{id}/', params: TestClockPath, status: 204, response: NoContent, auth: 'server' }),
  },
  licenses: {
    activate: op({ method: 'POST', path: '/license/activate/', body: LicenseActivate, status: 201, response: LicenseActivation, auth: 'serverOrClient' }),
    deactivate: op({ method: 'POST', path: '/license/deactivate/', body: LicenseDeactivate, status: 200, response: LicenseDeactivation, auth: 'serverOrClient' }),
    validate: op({ method: 'POST', path: '/license/validate/', body: LicenseValidate, status: 200, response: LicenseValidation, auth: 'serverOrClient' }),
    freeInstance: op({ method: 'POST', path: '/customers/{customerId}/licenses/{licenseId}/instances/{instanceId}/deactivate/', params: CustomerLicenseInstancePath, status: 200, response: LicenseInstanceFreed, auth: 'server' }),
  },
  orders: {
    list: op({ method: 'GET', path: '/orders/', query: OrderListQuery, status: 200, response: OrderList, auth: 'server' }),
    retrieve: op({ method: 'GET', path: '/orders/{id}/', params: OrderPath, status: 200, response: Order, auth: 'server' }),
    events: op({ method: 'GET', path: '/orders/{id}/events/', params: OrderPath, query: PageQuery, status: 200, response: OrderEventList, auth: 'server' }),
  },
  invoices: {
    pay: op({ method: 'POST', path: '/invoices/{id}/pay/', params: InvoicePath, status: 200, response: Invoice, auth: 'server' }),
    list: op({ method: 'GET', path: '/invoices/', query: InvoiceListQuery, status: 200, response: InvoiceList, auth: 'server' }),
    retrieve: op({ method: 'GET', path: '/invoices/{id}/', params: InvoicePath, status: 200, response: Invoice, auth: 'server' }),
    pdf: op({ method: 'GET', path: '/invoices/{id}/pdf/', params: InvoicePath, query: DocumentQuery, status: 200, response: BinaryFile, auth: 'server' }),
  },
  creditNotes: {
    list: op({ method: 'GET', path: '/credit-notes/', query: CreditNoteListQuery, status: 200, response: CreditNoteList, auth: 'server' }),
    retrieve: op({ method: 'GET', path: '/credit-notes/{id}/', params: CreditNotePath, status: 200, response: CreditNote, auth: 'server' }),
    pdf: op({ method: 'GET', path: '/credit-notes/{id}/pdf/', params: CreditNotePath, query: DocumentQuery, status: 200, response: BinaryFile, auth: 'server' }),
  },
  transactions: {
    list: op({ method: 'GET', path: '/transaction/', query: TransactionListQuery, status: 200, response: TransactionList, auth: 'server' }),
  },
  refunds: {
    list: op({ method: 'GET', path: '/refunds/', query: RefundListQuery, status: 200, response: RefundList, auth: 'server' }),
    create: op({ method: 'POST', path: '/refunds/', body: RefundCreate, status: 200, response: Refund, auth: 'server' }),
    retrieve: op({ method: 'GET', path: '/refunds/{refundId}/', params: RefundPath, status: 200, response: Refund, auth: 'server' }),
  },
  sellerProfile: {
    retrieve: op({ method: 'GET', path: '/seller-profile/', status: 200, response: SellerProfile, auth: 'server' }),
    update: op({ method: 'PATCH', path: '/seller-profile/', body: SellerProfileUpdate, status: 200, response: SellerProfile, auth: 'server' }),
  },
  monetization: {
    productOffering: op({ method: 'GET', path: '/monetization/product-offering/{product_id}/', params: ProductOfferingPath, query: ProductOfferingQuery, status: 200, response: ProductOffering, auth: 'serverOrClient' }),
  },
  partner: {
    organizations: {
      create: op({ method: 'POST', path: '/partner/organizations/', body: PartnerOrganizationCreate, status: 201, response: PartnerOrganization, auth: 'partner' }),
      list: op({ method: 'GET', path: '/partner/organizations/', query: PartnerOrganizationListQuery, status: 200, response: PartnerOrganizationList, auth: 'partner' }),
      retrieveByExternalId: op({ method: 'GET', path: '/partner/organizations/by-external-id/{externalId}/', params: PartnerExternalIdPath, status: 200, response: PartnerOrganization, auth: 'partner' }),
      retrieve: op({ method: 'GET', path: '/partner/organizations/{identifier}/', params: PartnerOrganizationPath, status: 200, response: PartnerOrganization, auth: 'partner' }),
    },
  },
  paymentMethods: {
    list: op({ method: 'GET', path: '/payment-methods/', query: PaymentMethodListQuery, status: 200, response: PaymentMethodList, auth: 'server' }),
    create: op({ method: 'POST', path: '/payment-methods/', body: PaymentMethodCreate, status: 201, response: PaymentMethod, auth: 'server' }),
    setDefault: op({ method: 'POST', path: '/payment-methods/{id}/default/', params: PaymentMethodPath, body: PaymentMethodSetDefault, status: 200, response: PaymentMethod, auth: 'server' }),
    delete: op({ method: 'DELETE', path: '/payment-methods/{id}/', params: PaymentMethodPath, status: 204, response: NoContent, auth: 'server' }),
    attachStripe: op({ method: 'POST', path: '/payment-methods/stripe/', body: StripePaymentMethodAttach, status: 201, response: PaymentMethod, auth: 'server' }),
  },
  paymentProvider: {
    retrieve: op({ method: 'GET', path: '/payment-provider/', status: 200, response: PaymentProviderSettings, auth: 'server' }),
    set: op({ method: 'PUT', path: '/payment-provider/', body: PaymentProviderSet, status: 200, response: PaymentProviderSettings, auth: 'server' }),
    delete: op({ method: 'DELETE', path: '/payment-provider/', status: 204, response: NoContent, auth: 'server' }),
  },
  usage: {
    report: op({ method: 'POST', path: '/report/usage/', body: ReportUsageRequest, status: 200, response: ReportUsageResponse, auth: 'server' }),
    reportBatch: op({ method: 'POST', path: '/report/usage/batch/', body: ReportUsageBatchRequest, status: 200, response: ReportUsageBatchResponse, auth: 'server' }),
    reportEvent: op({ method: 'POST', path: '/report/event/', body: ReportEventRequest, status: 200, response: ReportEventResponse, auth: 'server' }),
  },
  webhooks: {
    endpoints: {
      create: op({ method: 'POST', path: '/webhook/endpoints/', body: WebhookEndpointCreate, status: 201, response: WebhookEndpointWithSecret, auth: 'server' }),
      list: op({ method: 'GET', path: '/webhook/endpoints/', query: WebhookEndpointListQuery, status: 200, response: WebhookEndpointList, auth: 'server' }),
      retrieve: op({ method: 'GET', path: '/webhook/endpoints/{id}/', params: WebhookEndpointPath, status: 200, response: WebhookEndpoint, auth: 'server' }),
      update: op({ method: 'PATCH', path: '/webhook/endpoints/{id}/', params: WebhookEndpointPath, body: WebhookEndpointUpdate, status: 200, response: WebhookEndpoint, auth: 'server' }),
      delete: op({ method: 'DELETE', path: '/webhook/endpoints/{id}/', params: WebhookEndpointPath, status: 204, response: NoContent, auth: 'server' }),
      rotateSecret: op({ method: 'POST', path: '/webhook/endpoints/{id}/rotate-secret/', params: WebhookEndpointPath, body: WebhookSecretRotation, status: 200, response: WebhookEndpointWithSecret, auth: 'server' }),
      replay: op({ method: 'POST', path: '/webhook/endpoints/{id}/replay/', params: WebhookEndpointPath, body: WebhookReplay, status: 202, response: WebhookQueued, auth: 'server' }),
    },
    logs: {
      list: op({ method: 'GET', path: '/webhook/logs/', query: WebhookLogListQuery, status: 200, response: WebhookLogList, auth: 'server' }),
      retrieve: op({ method: 'GET', path: '/webhook/logs/{id}/', params: WebhookLogPath, status: 200, response: WebhookLogDetail, auth: 'server' }),
      resend: op({ method: 'POST', path: '/webhook/logs/{id}/resend/', params: WebhookLogPath, status: 202, response: WebhookQueued, auth: 'server' }),
    },
  },
  discounts: {
    create: op({ method: 'POST', path: '/discounts/', body: DiscountCreate, status: 201, response: Discount, auth: 'server' }),
    list: op({ method: 'GET', path: '/discounts/', query: DiscountListQuery, status: 200, response: DiscountList, auth: 'server' }),
    retrieve: op({ method: 'GET', path: '/discounts/{id}/', params: DiscountPath, status: 200, response: Discount, auth: 'server' }),
    archive: op({ method: 'POST', path: '/discounts/{id}/archive/', params: DiscountPath, status: 200, response: Discount, auth: 'server' }),
  },
  promotions: {
    rules: {
      create: op({ method: 'POST', path: '/promotion-rules/', body: PromotionCreate, status: 201, response: Promotion, auth: 'server' }),
      list: op({ method: 'GET', path: '/promotion-rules/', query: PromotionListQuery, status: 200, response: PromotionList, auth: 'server' }),
      pppGroups: op({ method: 'GET', path: '/promotion-rules/ppp-groups/', status: 200, response: PppGroupList, auth: 'server' }),
      retrieve: op({ method: 'GET', path: '/promotion-rules/{id}/', params: PromotionPath, status: 200, response: Promotion, auth: 'server' }),
      update: op({ method: 'PATCH', path: '/promotion-rules/{id}/', params: PromotionPath, body: PromotionUpdate, status: 200, response: Promotion, auth: 'server' }),
      delete: op({ method: 'DELETE', path: '/promotion-rules/{id}/', params: PromotionPath, status: 204, response: NoContent, auth: 'server' }),
      preview: op({ method: 'GET', path: '/promotion-rules/{id}/preview/', params: PromotionPath, query: PromotionPreviewQuery, status: 200, response: PromotionResponse, auth: 'server' }),
    },
    forVisitor: op({ method: 'GET', path: '/promotions/', query: PromotionQuery, status: 200, response: PromotionResponse, auth: 'serverOrClient' }),
  },
  checkout: {
    create: op({ method: 'POST', path: '/checkout/', body: CheckoutSessionCreate, status: 201, response: CheckoutSessionCreated, auth: 'serverOrClient' }),
    sessions: {
      list: op({ method: 'GET', path: '/checkout/sessions/', query: CheckoutSessionListQuery, status: 200, response: CheckoutSessionList, auth: 'server' }),
      retrieve: op({ method: 'GET', path: '/checkout/sessions/{id}/', params: CheckoutSessionPath, status: 200, response: CheckoutSessionDetail, auth: 'server' }),
      events: op({ method: 'GET', path: '/checkout/sessions/{id}/events/', params: CheckoutSessionPath, query: PageQuery, status: 200, response: CheckoutSessionEventList, auth: 'server' }),
    },
  },
  mail: {
    inbox: {
      list: op({ method: 'GET', path: '/mail/inbox/', status: 200, response: Inbox, auth: 'server' }),
      attachment: op({ method: 'GET', path: '/mail/inbox/{id}/attachments/{position}', params: MailAttachmentPath, status: 200, response: BinaryFile, auth: 'server' }),
    },
    settings: {
      retrieve: op({ method: 'GET', path: '/email-settings/', status: 200, response: EmailSettings, auth: 'server' }),
      update: op({ method: 'PATCH', path: '/email-settings/', body: EmailSettingsUpdate, status: 200, response: EmailSettings, auth: 'server' }),
    },
  },
  portal: {
    createSession: op({ method: 'POST', path: '/portal/session/', body: PortalSessionCreate, status: 200, response: PortalSessionCreated, auth: 'server' }),
  },
  overview: {
    retrieve: op({ method: 'GET', path: '/overview/', status: 200, response: Overview, auth: 'server' }),
  },
  analytics: {
    mrr: op({ method: 'GET', path: '/analytics/mrr/', query: AnalyticsMrrQuery, status: 200, response: MrrSeries, auth: 'server' }),
    mrrMovements: op({ method: 'GET', path: '/analytics/mrr/movements/', query: AnalyticsMovementsQuery, status: 200, response: MrrMovementList, auth: 'server' }),
    cash: op({ method: 'GET', path: '/analytics/cash/', query: AnalyticsCashQuery, status: 200, response: CashSeries, auth: 'server' }),
    subscribers: op({ method: 'GET', path: '/analytics/subscribers/', query: AnalyticsSubscribersQuery, status: 200, response: SubscriberSeries, auth: 'server' }),
    settings: {
      retrieve: op({ method: 'GET', path: '/analytics/settings/', status: 200, response: AnalyticsSettings, auth: 'server' }),
      update: op({ method: 'PUT', path: '/analytics/settings/', body: AnalyticsSettingsUpdate, status: 200, response: AnalyticsSettings, auth: 'server' }),
    },
  },
  team: {
    members: {
      list: op({ method: 'GET', path: '/members/', query: PageQuery, status: 200, response: MemberList, auth: 'server' }),
      invite: op({ method: 'POST', path: '/members/', body: MemberInvite, status: 201, response: Invitation, auth: 'server' }),
      update: op({ method: 'PATCH', path: '/members/{id}/', params: TeamPath, body: MemberUpdate, status: 200, response: Member, auth: 'server' }),
      remove: op({ method: 'DELETE', path: '/members/{id}/', params: TeamPath, status: 204, response: NoContent, auth: 'server' }),
    },
    invitations: {
      list: op({ method: 'GET', path: '/invitations/', query: PageQuery, status: 200, response: InvitationList, auth: 'server' }),
      revoke: op({ method: 'DELETE', path: '/invitations/{id}/', params: TeamPath, status: 204, response: NoContent, auth: 'server' }),
    },
  },
  apiKeys: {
    list: op({ method: 'GET', path: '/api-keys/', query: PageQuery, status: 200, response: ApiKeyList, auth: 'server' }),
    create: op({ method: 'POST', path: '/api-keys/', body: ApiKeyCreate, status: 201, response: CreatedApiKey, auth: 'server' }),
    revoke: op({ method: 'DELETE', path: '/api-keys/{prefix}/', params: ApiKeyPath, status: 200, response: ApiKey, auth: 'server' }),
  },
  auditLog: {
    list: op({ method: 'GET', path: '/audit-log/', query: AuditLogQuery, status: 200, response: AuditLog, auth: 'server' }),
  },
  entitlements: {
    check: op({ method: 'GET', path: '/entitlements/', query: EntitlementsQuery, status: 200, response: CheckEntitlementsResponse, auth: 'serverOrClient' }),
    changes: op({ method: 'GET', path: '/entitlements/changes/', status: 200, response: EntitlementChangeStream, events: EntitlementChangeEvent, auth: 'server' }),
    customerChanges: op({ method: 'GET', path: '/entitlements/changes/{customerId}/', params: CustomerChangesPath, status: 200, response: EntitlementChangeStream, events: EntitlementChangeEvent, auth: 'server' }),
  },
};

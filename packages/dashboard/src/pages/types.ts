/** The parts of the API's resources the pages show (the OpenAPI document has them whole). */
export interface CustomerRef {
  customerId: string;
  name: string | null;
  email: string | null;
}

export interface Customer extends CustomerRef {
  id: string;
  isArchived: boolean;
  testClockId: string | null;
  locale: string | null;
  createdOn: string;
  billingAddress: { country: string | null; city: string | null } | null;
}

export interface PlanRef {
  identifier: string;
  name: string;
  version?: number;
}

export interface Order {
  id: string;
  customer: CustomerRef;
  product: { id: string; identifier: string; name: string } | null;
  plan: PlanRef | null;
  status: string;
  paidAt: string | null;
  amountTotalUnits: number;
  refundedTotalUnits: number;
  saleCurrency: string;
  billingType: string;
  isRenewal: boolean;
  invoiceId: string | null;
  subscription: { id: string; status: string } | null;
  createdOn: string;
}

export interface Subscription {
  id: string;
  customerId: string;
  plan: PlanRef;
  planVersion: number;
  product: string;
  status: string;
  amount: string;
  currency: string;
  chargePeriod: string;
  billingPeriodEndTime: string | null;
  trialEnd: string | null;
  canceledAt: string | null;
  createdOn: string;
}

export interface Invoice {
  id: string;
  number: string;
  status: string;
  orderId: string | null;
  subscriptionId: string | null;
  customer: CustomerRef;
  currency: string;
  amountTotalUnits: number;
  issuedOn: string;
  paidAt: string | null;
  pdfUrl: string | null;
  paymentLink: string | null;
}

export interface CreditNote {
  id: string;
  number: string;
  reason: string;
  invoiceNumber: string;
  orderId: string | null;
  customer: CustomerRef;
  currency: string;
  amountTotalUnits: number;
  issuedOn: string;
  pdfUrl: string | null;
}

export interface Refund {
  id: string;
  amountUnits: number;
  currency: string;
  status: string;
  reason: string | null;
  order: { id: string; customer: CustomerRef };
  createdOn: string;
}

export interface Product {
  id: string;
  identifier: string;
  name: string;
  description: string;
  taxCode: string;
  isArchived: boolean;
  createdOn: string;
}

export interface Feature {
  id: string;
  identifier: string;
  name: string;
  featureType: string;
  description: string | null;
}

export interface Plan {
  identifier: string;
  name: string;
  description: string;
  product: string;
  version: number;
  isLatest: boolean;
  files?: Array<{ id: string; name: string; downloadUrl: string; enabled: boolean; size: number; contentType: string }>;
  status: 'draft' | 'published' | 'superseded';
  isArchived: boolean;
  createdOn: string;
}

export interface PaymentMethod {
  id: number;
  methodType: string;
  methodData: { brand: string | null; last4: string | null; expMonth: number | null; expYear: number | null };
  isDefault: boolean;
}

export interface Entitlement {
  featureId: string;
  featureType: string;
  hasAccess: boolean;
  usageLimit: number | null;
  currentUsage: number | null;
  remaining: number | null;
  resetAt: string | null;
}

/** A movement of money: a payment, a refund, and the fee and tax that come out of it. */
export interface Transaction {
  id: string;
  order: Order;
  createdOn: string;
  currency: string;
  amountTotalUnits: number;
  morFeeUnits: number;
  collectedTaxUnits: number;
  netPayoutUnits: number;
  status: 'success' | 'failure' | 'pending';
  transactionType: string;
  paymentMethodName: string | null;
  last4: string | null;
  availableOn: string | null;
  failureReason: string | null;
}

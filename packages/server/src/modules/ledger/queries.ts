/**
 * What other folders may read and write of the ledger (orders, their events, invoices,
 * transactions, licenses), inside their own transactions: the orders and invoices
 * endpoints, refunds, and the purchase flow that records a paid order.
 */
export {
  bringCollectionForward,
  countOrderEvents,
  countOrders,
  findOrder,
  insertInvoice,
  insertLicense,
  insertOrder,
  insertOrderEvent,
  insertOrderEvents,
  insertOrderRecords,
  insertRefundTransaction,
  insertTransaction,
  listOrderEvents,
  lockInvoice,
  unpaidInvoicesOf,
  updateInvoice,
  updateOrder,
  type InvoiceRow,
  listOrders,
  orderOfCharge,
  organizationName,
  paymentMethodsByIds,
  setRefunded,
  usdVolumeReached,
  type CustomerRow,
  type OrderEventRow,
  type OrderFilters,
  type OrderRow,
  type OrderSort,
  type OrderRecords,
} from './repo.js';
export { numberInvoice } from './invoice-numbers/repo.js';

/**
 * The words of a document, per language (decision 0064). The standard PDF fonts print
 * Windows-1252 only, so a language whose script they cannot print (Japanese) falls back
 * to English, words and formats alike.
 */
export interface Labels {
  invoice: string;
  status: { PAID: string; OPEN: string; PAYMENT_FAILED: string };
  invoiceNumber: string;
  issueDate: string;
  supplyDate: string;
  paidOn: string;
  dueDate: string;
  order: string;
  billTo: string;
  taxId: string;
  customer: string;
  columns: { description: string; quantity: string; unitPrice: string; discount: string; taxRate: string; tax: string; net: string };
  rates: { rate: string; net: string; tax: string };
  totalNet: string;
  totalTax: string;
  total: string;
  creditApplied: string;
  creditCarried: string;
  amountPaid: string;
  amountDue: string;
  pricesIncludeTax: string;
  amountsIn: (currency: string) => string;
  taxCountry: string;
  page: (page: number, of: number) => string;
  periods: Record<string, string>;
  oneOff: string;
  unusedTime: (plan: string) => string;
  remainingTime: (plan: string) => string;
  /** The mention art. 226(11a) asks of a reverse-charged invoice. */
  reverseCharge: string;
  creditNote: {
    title: string;
    number: string;
    corrects: string;
    reason: string;
    reasons: { REFUND: string; PRORATION: string };
    creditedTo: string;
    totalCredited: string;
    fallbackLine: string;
  };
}

const en: Labels = {
  invoice: 'INVOICE',
  status: { PAID: 'PAID', OPEN: 'OPEN', PAYMENT_FAILED: 'PAYMENT FAILED' },
  invoiceNumber: 'Invoice number',
  issueDate: 'Issue date',
  supplyDate: 'Date of supply',
  paidOn: 'Paid on',
  dueDate: 'Due date',
  order: 'Order',
  billTo: 'BILL TO',
  taxId: 'Tax ID',
  customer: 'Customer',
  columns: { description: 'DESCRIPTION', quantity: 'QTY', unitPrice: 'UNIT PRICE', discount: 'DISCOUNT', taxRate: 'TAX %', tax: 'TAX', net: 'NET' },
  rates: { rate: 'Tax rate', net: 'Net amount', tax: 'Tax' },
  totalNet: 'Total net',
  totalTax: 'Total tax',
  total: 'Total',
  creditApplied: 'Paid from credit balance',
  creditCarried: 'Added to credit balance',
  amountPaid: 'Amount paid',
  amountDue: 'Amount due',
  pricesIncludeTax: 'Unit prices include tax.',
  amountsIn: (currency) => `Amounts in ${currency}`,
  taxCountry: 'Country of taxation',
  page: (page, of) => `page ${page} of ${of}`,
  periods: {
    DAILY: 'daily',
    WEEKLY: 'weekly',
    TWENTY_EIGHT_DAYS: 'every 28 days',
    MONTHLY: 'monthly',
    QUARTERLY: 'quarterly',
    THREE_MONTHS: 'every 3 months',
    SIX_MONTHS: 'every 6 months',
    YEARLY: 'yearly',
  },
  oneOff: 'one-off purchase',
  unusedTime: (plan) => `Unused time on ${plan}`,
  remainingTime: (plan) => `Remaining time on ${plan}`,
  reverseCharge: 'Reverse charge: VAT to be accounted for by the recipient (Art. 196 Council Directive 2006/112/EC).',
  creditNote: {
    title: 'CREDIT NOTE',
    number: 'Credit note number',
    corrects: 'Corrects invoice',
    reason: 'Reason',
    reasons: { REFUND: 'Refund', PRORATION: 'Unused time of a plan change' },
    creditedTo: 'CREDITED TO',
    totalCredited: 'Total credited',
    fallbackLine: 'Credit',
  },
};

const de: Labels = {
  invoice: 'RECHNUNG',
  status: { PAID: 'BEZAHLT', OPEN: 'OFFEN', PAYMENT_FAILED: 'ZAHLUNG FEHLGESCHLAGEN' },
  invoiceNumber: 'Rechnungsnummer',
  issueDate: 'Rechnungsdatum',
  supplyDate: 'Leistungsdatum',
  paidOn: 'Bezahlt am',
  dueDate: 'Fällig am',
  order: 'Bestellung',
  billTo: 'RECHNUNG AN',
  taxId: 'USt-IdNr.',
  customer: 'Kunde',
  columns: { description: 'BESCHREIBUNG', quantity: 'MENGE', unitPrice: 'EINZELPREIS', discount: 'RABATT', taxRate: 'UST. %', tax: 'UST.', net: 'NETTO' },
  rates: { rate: 'Steuersatz', net: 'Nettobetrag', tax: 'Umsatzsteuer' },
  totalNet: 'Summe netto',
  totalTax: 'Summe Umsatzsteuer',
  total: 'Gesamtbetrag',
  creditApplied: 'Aus Guthaben bezahlt',
  creditCarried: 'Dem Guthaben gutgeschrieben',
  amountPaid: 'Bezahlter Betrag',
  amountDue: 'Fälliger Betrag',
  pricesIncludeTax: 'Einzelpreise inklusive Umsatzsteuer.',
  amountsIn: (currency) => `Beträge in ${currency}`,
  taxCountry: 'Besteuerungsland',
  page: (page, of) => `Seite ${page} von ${of}`,
  periods: {
    DAILY: 'täglich',
    WEEKLY: 'wöchentlich',
    TWENTY_EIGHT_DAYS: 'alle 28 Tage',
    MONTHLY: 'monatlich',
    QUARTERLY: 'vierteljährlich',
    THREE_MONTHS: 'alle 3 Monate',
    SIX_MONTHS: 'halbjährlich',
    YEARLY: 'jährlich',
  },
  oneOff: 'Einmalkauf',
  unusedTime: (plan) => `Nicht genutzte Zeit von ${plan}`,
  remainingTime: (plan) => `Restlaufzeit von ${plan}`,
  reverseCharge: 'Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge, Art. 196 Richtlinie 2006/112/EG).',
  creditNote: {
    title: 'GUTSCHRIFT',
    number: 'Gutschriftsnummer',
    corrects: 'Korrigiert Rechnung',
    reason: 'Grund',
    reasons: { REFUND: 'Erstattung', PRORATION: 'Nicht genutzte Zeit bei einem Tarifwechsel' },
    creditedTo: 'GUTGESCHRIEBEN AN',
    totalCredited: 'Gutschrift gesamt',
    fallbackLine: 'Gutschrift',
  },
};

const fr: Labels = {
  invoice: 'FACTURE',
  status: { PAID: 'PAYÉE', OPEN: 'À PAYER', PAYMENT_FAILED: 'PAIEMENT ÉCHOUÉ' },
  invoiceNumber: 'Numéro de facture',
  issueDate: "Date d'émission",
  supplyDate: 'Date de prestation',
  paidOn: 'Payée le',
  dueDate: "Date d'échéance",
  order: 'Commande',
  billTo: 'FACTURÉ À',
  taxId: 'N° TVA',
  customer: 'Client',
  columns: { description: 'DÉSIGNATION', quantity: 'QTÉ', unitPrice: 'PRIX UNITAIRE', discount: 'REMISE', taxRate: 'TVA %', tax: 'TVA', net: 'HT' },
  rates: { rate: 'Taux de TVA', net: 'Montant HT', tax: 'TVA' },
  totalNet: 'Total HT',
  totalTax: 'Total TVA',
  total: 'Total TTC',
  creditApplied: 'Payé par avoir',
  creditCarried: 'Porté au crédit du compte',
  amountPaid: 'Montant payé',
  amountDue: 'Montant dû',
  pricesIncludeTax: 'Prix unitaires TTC.',
  amountsIn: (currency) => `Montants en ${currency}`,
  taxCountry: "Pays d'imposition",
  page: (page, of) => `page ${page} sur ${of}`,
  periods: {
    DAILY: 'quotidien',
    WEEKLY: 'hebdomadaire',
    TWENTY_EIGHT_DAYS: 'tous les 28 jours',
    MONTHLY: 'mensuel',
    QUARTERLY: 'trimestriel',
    THREE_MONTHS: 'tous les 3 mois',
    SIX_MONTHS: 'semestriel',
    YEARLY: 'annuel',
  },
  oneOff: 'achat unique',
  unusedTime: (plan) => `Temps non utilisé de ${plan}`,
  remainingTime: (plan) => `Temps restant de ${plan}`,
  reverseCharge: 'Autoliquidation : TVA due par le preneur (art. 196 de la directive 2006/112/CE).',
  creditNote: {
    title: 'AVOIR',
    number: "Numéro d'avoir",
    corrects: 'Rectifie la facture',
    reason: 'Motif',
    reasons: { REFUND: 'Remboursement', PRORATION: "Temps non utilisé lors d'un changement d'offre" },
    creditedTo: 'AU BÉNÉFICE DE',
    totalCredited: 'Total crédité',
    fallbackLine: 'Avoir',
  },
};

const es: Labels = {
  invoice: 'FACTURA',
  status: { PAID: 'PAGADA', OPEN: 'PENDIENTE', PAYMENT_FAILED: 'PAGO FALLIDO' },
  invoiceNumber: 'Número de factura',
  issueDate: 'Fecha de expedición',
  supplyDate: 'Fecha de la prestación',
  paidOn: 'Pagada el',
  dueDate: 'Vencimiento',
  order: 'Pedido',
  billTo: 'FACTURAR A',
  taxId: 'NIF-IVA',
  customer: 'Cliente',
  columns: { description: 'DESCRIPCIÓN', quantity: 'CANT.', unitPrice: 'PRECIO UNIT.', discount: 'DESCUENTO', taxRate: 'IVA %', tax: 'IVA', net: 'BASE' },
  rates: { rate: 'Tipo de IVA', net: 'Base imponible', tax: 'Cuota' },
  totalNet: 'Total base imponible',
  totalTax: 'Total IVA',
  total: 'Total',
  creditApplied: 'Pagado con saldo a favor',
  creditCarried: 'Añadido al saldo a favor',
  amountPaid: 'Importe pagado',
  amountDue: 'Importe pendiente',
  pricesIncludeTax: 'Los precios unitarios incluyen IVA.',
  amountsIn: (currency) => `Importes en ${currency}`,
  taxCountry: 'País de tributación',
  page: (page, of) => `página ${page} de ${of}`,
  periods: {
    DAILY: 'diario',
    WEEKLY: 'semanal',
    TWENTY_EIGHT_DAYS: 'cada 28 días',
    MONTHLY: 'mensual',
    QUARTERLY: 'trimestral',
    THREE_MONTHS: 'cada 3 meses',
    SIX_MONTHS: 'semestral',
    YEARLY: 'anual',
  },
  oneOff: 'compra única',
  unusedTime: (plan) => `Tiempo no utilizado de ${plan}`,
  remainingTime: (plan) => `Tiempo restante de ${plan}`,
  reverseCharge: 'Inversión del sujeto pasivo: IVA a cargo del destinatario (art. 196 de la Directiva 2006/112/CE).',
  creditNote: {
    title: 'FACTURA RECTIFICATIVA',
    number: 'Número de rectificativa',
    corrects: 'Rectifica la factura',
    reason: 'Motivo',
    reasons: { REFUND: 'Reembolso', PRORATION: 'Tiempo no usado en un cambio de plan' },
    creditedTo: 'ABONADO A',
    totalCredited: 'Total abonado',
    fallbackLine: 'Abono',
  },
};

const LABELS: Record<string, Labels> = { en, de, fr, es };

/** The language a document is written in: the seller's, when the standard fonts can print it; else English. */
export function documentLanguage(language: unknown): string {
  return typeof language === 'string' && language in LABELS ? language : 'en';
}

export function labelsFor(language: string): Labels {
  return LABELS[documentLanguage(language)]!;
}

import { notFound } from '../../http/errors.js';

export const orderNotFound = (id: string) => notFound(`No order with id "${id}"`, 'order_not_found');

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider, useRouteError, isRouteErrorResponse, Link } from 'react-router';
import { SessionProvider } from './session';
import { Layout } from './ui/Layout';
import { AcceptInvitation, ResetPassword, SignIn, Welcome } from './pages/SignIn';
import { Home } from './pages/Home';
import { Analytics } from './pages/Analytics';
import { Customers } from './pages/Customers';
import { CustomerDetail } from './pages/CustomerDetail';
import { CatalogPage } from './pages/Catalog';
import { PlanDetail } from './pages/PlanDetail';
import { ProductDetail } from './pages/ProductDetail';
import { Subscriptions, SubscriptionDetail } from './pages/Subscriptions';
import { OrderDetail, Orders } from './pages/Orders';
import { Selling } from './pages/Selling';
import { PromotionDetail } from './pages/PromotionDetail';
import { Developers } from './pages/Developers';
import { Settings } from './pages/Settings';
import { SellerProfile } from './pages/SellerProfile';
import { t } from './i18n/language';
import './styles.css';

function NotFound() {
  const error = useRouteError();
  return (
    <main id="main" className="narrow">
      <h1>{isRouteErrorResponse(error) && error.status === 404 ? t('error.noSuchPage') : t('error.wentWrong')}</h1>
      <p>
        <Link to="/">{t('error.backToDashboard')}</Link>
      </p>
    </main>
  );
}

const router = createBrowserRouter(
  [
    { path: '/sign-in', element: <SignIn /> },
    { path: '/welcome', element: <Welcome /> },
    { path: '/accept-invitation', element: <AcceptInvitation /> },
    { path: '/reset-password', element: <ResetPassword /> },
    {
      path: '/',
      element: <Layout />,
      errorElement: <NotFound />,
      children: [
        { index: true, element: <Home /> },
        { path: 'analytics', element: <Analytics /> },
        { path: 'customers', element: <Customers /> },
        { path: 'customers/:customerId', element: <CustomerDetail /> },
        { path: 'catalog', element: <CatalogPage /> },
        { path: 'catalog/products/:id', element: <ProductDetail /> },
        { path: 'catalog/plans/:identifier', element: <PlanDetail /> },
        { path: 'subscriptions', element: <Subscriptions /> },
        { path: 'subscriptions/:id', element: <SubscriptionDetail /> },
        { path: 'orders', element: <Orders /> },
        { path: 'orders/:id', element: <OrderDetail /> },
        { path: 'selling', element: <Selling /> },
        { path: 'selling/promotions/:id', element: <PromotionDetail /> },
        { path: 'developers', element: <Developers /> },
        { path: 'settings', element: <Settings /> },
        { path: 'settings/profile', element: <SellerProfile /> },
      ],
    },
  ],
  { basename: '/dashboard' },
);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider>
      <RouterProvider router={router} />
    </SessionProvider>
  </StrictMode>,
);

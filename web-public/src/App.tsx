import { LoadingText } from '@sprout/ui';
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { DeferredToaster } from './components/DeferredToaster';
import { LandingPage } from './pages/LandingPage';

// The landing page ships in the first bundle; the other pages load when visited.
const LivePage = lazy(() => import('./pages/LivePage'));
const ConsentPage = lazy(() => import('./pages/ConsentPage'));
const LocationTestPage = lazy(() => import('./pages/LocationTestPage'));
const NotFoundPage = lazy(() => import('./pages/NotFoundPage'));

export function App() {
  return (
    <>
      <Suspense fallback={<LoadingText>Loading...</LoadingText>}>
        <Routes>
          <Route path="/" element={<LandingPage />} />
          <Route path="/live" element={<LivePage />} />
          <Route path="/consent" element={<ConsentPage />} />
          <Route path="/location-test" element={<LocationTestPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
      <DeferredToaster />
    </>
  );
}

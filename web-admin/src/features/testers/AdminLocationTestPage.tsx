import { LocationTest } from '@sprout/ui';
import { PageHeader } from '../../components/PageHeader';

/** Admin location detection test: the public location test inside the console. */
export default function AdminLocationTestPage() {
  return (
    <>
      <PageHeader title="Location Detection" description="Test which location Sprout reads from a message." />
      <LocationTest />
    </>
  );
}

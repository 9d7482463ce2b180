import { EmptyState } from '../../components/empty-state';
import { ChartIcon } from '../../components/icons';
import { PageHeader } from '../../components/page-header';

export function AnalyticsPage() {
  return (
    <>
      <PageHeader title="Analytics" description="How viewers engage with your demos: views, completion and where they drop off." />
      <EmptyState icon={<ChartIcon size={24} />} title="No views yet">
        Once viewers play your published demos, their views, completion rate and step-by-step drop-off appear here.
      </EmptyState>
    </>
  );
}

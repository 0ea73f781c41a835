//! Body of the screens another release delivers (spec part 2): title plus a short note.
import { Link } from "react-router-dom";
import { IconClock } from "./ui/icons";
import { Card, PageHeader } from "./ui/primitives";

export function ComingSoon({ title, description }: { title: string; description: string }) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <Card className="p-10">
        <div className="flex flex-col items-center text-center">
          <div className="mb-4 rounded-full bg-indigo-500/10 p-3 text-indigo-300">
            <IconClock className="h-6 w-6" />
          </div>
          <p className="text-base font-medium text-white">{title} is coming in a later release</p>
          <p className="mt-1 max-w-md text-sm text-gray-400">
            This area is being built. Meanwhile your tracking keeps collecting data, so it will be here when this screen arrives.
          </p>
          <Link to="/" className="mt-5 text-sm font-medium text-indigo-300 hover:text-indigo-200">
            Back to the dashboard
          </Link>
        </div>
      </Card>
    </>
  );
}

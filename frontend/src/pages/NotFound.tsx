import { Link } from "react-router-dom";
import { EmptyState, PageHeader } from "../components/ui";

export default function NotFound() {
  return (
    <div>
      <PageHeader title="Page not found" />
      <EmptyState
        title="This page does not exist or was moved."
        description="Check the address, or start again from the dashboard."
        action={
          <Link className="text-indigo-600 underline dark:text-indigo-400" to="/">
            Go to the dashboard
          </Link>
        }
      />
    </div>
  );
}

import { Link } from "react-router-dom";
import { EmptyState } from "../components/ui";

export default function NotFound() {
  return (
    <EmptyState
      title="Page not found"
      description="This page does not exist or was moved."
      action={
        <Link className="text-indigo-600 underline" to="/">
          Go to the dashboard
        </Link>
      }
    />
  );
}

import { lazy, Suspense } from "react";
import { BrowserRouter, Route, Routes } from "react-router-dom";
import { ConfirmHost } from "./components/ConfirmDialog";
import { Layout } from "./components/Layout";
import { Spinner } from "./components/ui";
// the unsaved-changes guard's back/forward listener must be added before BrowserRouter's own
import "./lib/leaveGuard";

const Dashboard = lazy(() => import("./pages/Dashboard"));
const Agents = lazy(() => import("./pages/Agents"));
const AgentEditor = lazy(() => import("./pages/AgentEditor"));
const Providers = lazy(() => import("./pages/Providers"));
const Models = lazy(() => import("./pages/Models"));
const Tools = lazy(() => import("./pages/Tools"));
const ToolEditor = lazy(() => import("./pages/ToolEditor"));
const McpServers = lazy(() => import("./pages/McpServers"));
const Knowledge = lazy(() => import("./pages/Knowledge"));
const Chat = lazy(() => import("./pages/Chat"));
const Executions = lazy(() => import("./pages/Executions"));
const ExecutionDetail = lazy(() => import("./pages/ExecutionDetail"));
const Settings = lazy(() => import("./pages/Settings"));
const Budgets = lazy(() => import("./pages/Budgets"));
const Flows = lazy(() => import("./pages/Flows"));
const FlowEditor = lazy(() => import("./pages/FlowEditor"));
const FlowRuns = lazy(() => import("./flows/FlowRuns"));
const FlowRunPage = lazy(() => import("./flows/FlowRunPage"));
const Approvals = lazy(() => import("./pages/Approvals"));
const Users = lazy(() => import("./pages/Users"));
const Roles = lazy(() => import("./pages/Roles"));
const Prompts = lazy(() => import("./pages/Prompts"));
const Triggers = lazy(() => import("./pages/Triggers"));
const Evals = lazy(() => import("./pages/Evals"));
const MessageView = lazy(() => import("./pages/MessageView"));
const DataRoutes = lazy(() => import("./data/DataRoutes"));
const Integrations = lazy(() => import("./integrations/Integrations"));
const NotFound = lazy(() => import("./pages/NotFound"));

export function App() {
  return (
    <BrowserRouter basename="/huf">
      <Suspense fallback={<Spinner />}>
        <Routes>
          <Route element={<Layout />}>
            <Route index element={<Dashboard />} />
            <Route path="agents" element={<Agents />} />
            <Route path="agents/new" element={<AgentEditor />} />
            <Route path="agents/:name" element={<AgentEditor />} />
            <Route path="providers" element={<Providers />} />
            <Route path="models" element={<Models />} />
            <Route path="tools" element={<Tools />} />
            <Route path="tools/new" element={<ToolEditor />} />
            <Route path="tools/:name" element={<ToolEditor />} />
            <Route path="mcp" element={<McpServers />} />
            <Route path="mcp/:name" element={<McpServers />} />
            <Route path="knowledge" element={<Knowledge />} />
            <Route path="knowledge/:name" element={<Knowledge />} />
            <Route path="chat/:agent?/:conversation?" element={<Chat />} />
            <Route path="executions" element={<Executions />} />
            <Route path="executions/:name" element={<ExecutionDetail />} />
            <Route path="settings" element={<Settings />} />
            <Route path="budgets" element={<Budgets />} />
            <Route path="flows" element={<Flows />} />
            <Route path="flow-runs" element={<FlowRuns />} />
            <Route path="flow-runs/:runId" element={<FlowRunPage />} />
            <Route path="flows/:flowId" element={<FlowEditor />} />
            <Route path="approvals" element={<Approvals />} />
            <Route path="users" element={<Users />} />
            <Route path="roles" element={<Roles />} />
            <Route path="prompts/:name?" element={<Prompts key="prompt" kind="prompt" />} />
            <Route path="summary-prompts/:name?" element={<Prompts key="summary" kind="summary" />} />
            <Route path="triggers/:agent?" element={<Triggers />} />
            <Route path="evals/:agent" element={<Evals />} />
            <Route path="view/:messageId" element={<MessageView />} />
            <Route path="data/*" element={<DataRoutes />} />
            <Route path="integrations/:service?" element={<Integrations />} />
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </Suspense>
      <ConfirmHost />
    </BrowserRouter>
  );
}

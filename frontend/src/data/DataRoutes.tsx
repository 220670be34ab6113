import { Route, Routes } from "react-router-dom";
import DataTables from "./DataTables";
import RecordsGrid from "./RecordsGrid";
import SchemaEditor from "./SchemaEditor";

/** /huf/data/* (one lazily loaded part of the dashboard): the tables, a table's fields (new or existing) and its records. */
export default function DataRoutes() {
  return (
    <Routes>
      <Route index element={<DataTables />} />
      <Route path="new" element={<SchemaEditor key="new" />} />
      <Route path=":name/schema" element={<SchemaEditor key="edit" />} />
      <Route path=":name" element={<RecordsGrid />} />
    </Routes>
  );
}

// Moved: the permission policy lives in src/services/policies/. Kept only until every import points there.
export { type Access, authorizeEdit, authorizeRead, notebookAccess } from "../policies";

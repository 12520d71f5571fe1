/** Inline SVG icons (no icon font, nothing to fetch). Decorative: the text or aria-label names the action. */
import type { ReactNode } from "react";

function Svg({ children, size = 20 }: { children: ReactNode; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const icons = {
  note: () => (
    <Svg>
      <path d="M4 4h12l4 4v12H4z" />
      <path d="M8 12h8M8 16h5" />
    </Svg>
  ),
  assimilate: () => (
    <Svg>
      <path d="M12 3v12" />
      <path d="m7 10 5 5 5-5" />
      <path d="M4 21h16" />
    </Svg>
  ),
  recall: () => (
    <Svg>
      <path d="M3 12a9 9 0 1 0 3-6.7" />
      <path d="M3 4v5h5" />
      <path d="M12 7v5l3 2" />
    </Svg>
  ),
  circles: () => (
    <Svg>
      <circle cx="9" cy="9" r="5" />
      <circle cx="15" cy="15" r="5" />
    </Svg>
  ),
  bazaar: () => (
    <Svg>
      <path d="M4 9h16l-1-5H5z" />
      <path d="M5 9v11h14V9" />
      <path d="M10 20v-6h4v6" />
    </Svg>
  ),
  messages: () => (
    <Svg>
      <path d="M4 5h16v11H8l-4 4z" />
    </Svg>
  ),
  account: () => (
    <Svg>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21c1-4 4-6 8-6s7 2 8 6" />
    </Svg>
  ),
  login: () => (
    <Svg>
      <path d="M15 3h4v18h-4" />
      <path d="M10 17l5-5-5-5" />
      <path d="M15 12H3" />
    </Svg>
  ),
  undo: () => (
    <Svg>
      <path d="M9 14 4 9l5-5" />
      <path d="M4 9h11a5 5 0 0 1 0 10h-3" />
    </Svg>
  ),
  search: () => (
    <Svg>
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-4-4" />
    </Svg>
  ),
  menu: () => (
    <Svg>
      <path d="M4 6h16M4 12h16M4 18h16" />
    </Svg>
  ),
  close: () => (
    <Svg>
      <path d="M6 6l12 12M18 6 6 18" />
    </Svg>
  ),
  copy: () => (
    <Svg>
      <rect x="9" y="9" width="12" height="12" rx="2" />
      <path d="M5 15V5a2 2 0 0 1 2-2h10" />
    </Svg>
  ),
  trash: () => (
    <Svg>
      <path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13" />
    </Svg>
  ),
  check: () => (
    <Svg>
      <path d="m5 12 5 5 9-10" />
    </Svg>
  ),
  addChild: () => (
    <Svg>
      <path d="M5 4v10a3 3 0 0 0 3 3h5" />
      <path d="M17 14v6M14 17h6" />
    </Svg>
  ),
  addSibling: () => (
    <Svg>
      <rect x="4" y="4" width="10" height="6" rx="1" />
      <path d="M9 10v4" />
      <path d="M17 14v6M14 17h6" />
    </Svg>
  ),
  markdown: () => (
    <Svg>
      <rect x="2" y="5" width="20" height="14" rx="2" />
      <path d="M6 15V9l2.5 3L11 9v6M15 9v6l2-2 2 2" />
    </Svg>
  ),
  richText: () => (
    <Svg>
      <path d="M6 4h8a4 4 0 0 1 0 8H6zM6 12h9a4 4 0 0 1 0 8H6z" />
    </Svg>
  ),
  brand: () => (
    <Svg size={26}>
      <circle cx="12" cy="12" r="9" />
      <path d="M8 12c0-2 2-4 4-4s4 2 4 4-2 4-4 4" />
      <circle cx="12" cy="12" r="1" />
    </Svg>
  ),
};

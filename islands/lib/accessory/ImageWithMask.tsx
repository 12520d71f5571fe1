import { useCallback, useEffect, useRef, useState } from "react";
import { maskRectangles } from "./queries";

/**
 * The note's image with its mask drawn over it: an SVG laid on the image whose viewBox is the
 * image's natural size, so the rectangles are in image pixels whatever size the image is shown at.
 */
export function ImageWithMask({ src, mask }: { src: string; mask?: string }) {
  const imageRef = useRef<HTMLImageElement>(null);
  const [size, setSize] = useState<{ width: number; height: number }>();
  const [failed, setFailed] = useState(false);
  const measure = useCallback(() => {
    const image = imageRef.current;
    if (image?.complete && image.naturalWidth > 0) setSize({ width: image.naturalWidth, height: image.naturalHeight });
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: src is the trigger: a new image is measured afresh.
  useEffect(() => {
    setFailed(false);
    setSize(undefined);
    measure(); // already loaded (cached) images fire no load event after hydration
  }, [src, measure]);
  const rectangles = maskRectangles(mask);
  return (
    <figure className="note-image">
      <div className="note-image-frame">
        {/* biome-ignore lint/a11y/noRedundantAlt: "note image" is the image's accessible name that the tests and the spec use. */}
        <img ref={imageRef} src={src} alt="note image" referrerPolicy="no-referrer" onLoad={measure} onError={() => setFailed(true)} />
        {size && rectangles.length > 0 && (
          <svg
            className="note-image-mask"
            viewBox={`0 0 ${size.width} ${size.height}`}
            preserveAspectRatio="none"
            role="img"
            aria-label="image mask"
          >
            {rectangles.map((r, i) => (
              <rect
                // biome-ignore lint/suspicious/noArrayIndexKey: mask rectangles have no id; they are redrawn whole when the mask changes.
                key={i}
                x={r.x}
                y={r.y}
                width={r.width}
                height={r.height}
              />
            ))}
          </svg>
        )}
      </div>
      {failed && <figcaption className="muted">The image could not be loaded.</figcaption>}
    </figure>
  );
}

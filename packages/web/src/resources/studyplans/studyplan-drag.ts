import {
  type CollisionDetection,
  closestCenter,
  type KeyboardCoordinateGetter,
  rectIntersection,
} from "@dnd-kit/core";
import { dragKeyboardStepPx } from "@trialdesk/domain";
import { isPane } from "./studyplan-cards";

/** Arrow keys move a lifted card by the spec's 25 px (§9). */
export const coordinateGetter: KeyboardCoordinateGetter = (event, { currentCoordinates: { x, y } }) => {
  const step = dragKeyboardStepPx;
  switch (event.code) {
    case "ArrowDown":
      return { x, y: y + step };
    case "ArrowUp":
      return { x, y: y - step };
    case "ArrowRight":
      return { x: x + step, y };
    case "ArrowLeft":
      return { x: x - step, y };
  }
  return undefined;
};

/**
 * The pane the dragged card overlaps most, then the nearest card in it (or the pane itself when it
 * is empty), so a card can be dropped into an empty pane and never onto a card of the pane it left.
 */
export const collisionDetection: CollisionDetection = (args) => {
  const panes = args.droppableContainers.filter((c) => isPane(c.id));
  const [pane] = rectIntersection({ ...args, droppableContainers: panes });
  if (!pane) return [];
  const cards = args.droppableContainers.filter((c) => !isPane(c.id) && c.data.current?.pane === pane.id);
  return cards.length === 0 ? [pane] : closestCenter({ ...args, droppableContainers: cards });
};

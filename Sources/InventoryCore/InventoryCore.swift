public enum InventoryCore {}

import RainCore

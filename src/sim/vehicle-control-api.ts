/**
 * VehicleControlAPI: the simulated car of the multi-turn categories.
 *
 * Port of the reference's `vehicle_control.py` (spec §6.8): engine, doors, climate, lights, brakes,
 * cruise control, tire pressure and a little navigation. Readings such as the outside temperature
 * and the current speed come from a seeded CPython-compatible generator.
 */
import { pyBinaryOp } from '../py/operators.js';
import { augmented, dictGetOr, getItem, joinStrings, pyCompare, pyFloat, pyIterate, setItem } from '../py/ops.js';
import { PyRandom } from '../py/random.js';
import { listContains, pyDict, pyEquals, pyTruthy, type PyDict, type PyValue } from '../py/value.js';
import { expectDict, randomSeed } from './scenario.js';
import { SimulatedApi, opt, req, type MethodSignatures } from './simulated-api.js';

/** The reference's module constants (gallons, miles per gallon). */
const MAX_FUEL_LEVEL = 50n;
const MIN_FUEL_LEVEL = 0.0;
const MILE_PER_GALLON = 20.0;
/** `startEngine` needs the brake pedal pressed with exactly this force (position 1). */
const FULL_BRAKE_FORCE = 1000.0;
const MAX_BRAKE_FORCE = 1000n;

/** The reference's DEFAULT_STATE values (floats stay JS numbers, ints are bigints). */
const DEFAULTS = {
  randomSeed: 141053n,
  fuelLevel: 0.0,
  batteryVoltage: 12.6,
  engineState: 'stopped',
  acTemperature: 25.0,
  fanSpeed: 50n,
  acMode: 'auto',
  humidityLevel: 50.0,
  headLightStatus: 'off',
  parkingBrakeStatus: 'released',
  parkingBrakeForce: 0.0,
  slopeAngle: 0.0,
  brakePedalStatus: 'released',
  brakePedalForce: 0.0,
  distanceToNextVehicle: 50.0,
  cruiseStatus: 'inactive',
  destination: 'None',
  frontTirePressure: 32.0,
  rearTirePressure: 30.0,
} as const;
const defaultDoorStatus = (): PyDict =>
  pyDict({ driver: 'unlocked', passenger: 'unlocked', rear_left: 'unlocked', rear_right: 'unlocked' });

/** The road distances (km) `estimate_distance` knows, between zip codes, either direction. */
const DISTANCES: readonly (readonly [string, string, number])[] = [
  ['83214', '74532', 750.0],
  ['56108', '62947', 320.0],
  ['71354', '83462', 450.0],
  ['47329', '52013', 290.0],
  ['69238', '51479', 630.0],
  ['94016', '83214', 980.0],
  ['94016', '94704', 600.0],
  ['94704', '08540', 2550.0],
  ['94016', '08540', 1950.0],
  ['62947', '47329', 1053.0],
  ['94016', '62947', 780.0],
  ['74532', '94016', 880.0],
];

/** City → zip code for `get_zipcode_based_on_city` (anything else is "00000"). */
const ZIPCODE_BY_CITY: ReadonlyMap<string, string> = new Map([
  ['Rivermist', '83214'],
  ['Stonebrook', '74532'],
  ['Maplecrest', '56108'],
  ['Silverpine', '62947'],
  ['Shadowridge', '71354'],
  ['Sunset Valley', '83462'],
  ['Oakendale', '47329'],
  ['Willowbend', '52013'],
  ['Crescent Hollow', '69238'],
  ['Autumnville', '51479'],
  ['San Francisco', '94016'],
]);

const NEAREST_TIRE_SHOP = '456 Oakwood Avenue, Rivermist, 83214';

/**
 * BFCL parity: vehicle_control.py::get_outside_temperature_from_google — in long context the
 * reference writes the reading into the module-global LONG_WEATHER_EXTENSION dict and returns that
 * dict itself. We keep one copy per long-context data set (i.e. per `SimContext` data, which is
 * loaded once per process like the module), so the parsed data stays untouched; since each call
 * overwrites the same key, the results are the same as with the global dict.
 */
const weatherByContext = new WeakMap<PyDict, PyDict>();

/** Python signatures of the public methods (one table for every instance). */
const SIGNATURES: MethodSignatures = {
  startEngine: [req('ignitionMode')],
  fillFuelTank: [req('fuelAmount')],
  lockDoors: [req('unlock'), req('door')],
  adjustClimateControl: [req('temperature'), opt('unit', 'celsius'), opt('fanSpeed', 50n), opt('mode', 'auto')],
  get_outside_temperature_from_google: [],
  get_outside_temperature_from_weather_com: [],
  setHeadlights: [req('mode')],
  displayCarStatus: [req('option')],
  activateParkingBrake: [req('mode')],
  pressBrakePedal: [req('pedalPosition')],
  releaseBrakePedal: [],
  setCruiseControl: [req('speed'), req('activate'), req('distanceToNextVehicle')],
  get_current_speed: [],
  display_log: [req('messages')],
  estimate_drive_feasibility_by_mileage: [req('distance')],
  liter_to_gallon: [req('liter')],
  gallon_to_liter: [req('gallon')],
  estimate_distance: [req('cityA'), req('cityB')],
  get_zipcode_based_on_city: [req('city')],
  set_navigation: [req('destination')],
  check_tire_pressure: [],
  find_nearest_tire_shop: [],
};

export class VehicleControlAPI extends SimulatedApi {
  readonly _className = 'VehicleControlAPI';

  // Public state, in the order the reference's `_load_scenario` assigns it (= `vars()` order).
  fuelLevel: PyValue = DEFAULTS.fuelLevel;
  batteryVoltage: PyValue = DEFAULTS.batteryVoltage;
  /** Scenario key `engineState`. */
  engine_state: PyValue = DEFAULTS.engineState;
  remainingUnlockedDoors: PyValue = 4n;
  doorStatus: PyDict = defaultDoorStatus();
  acTemperature: PyValue = DEFAULTS.acTemperature;
  fanSpeed: PyValue = DEFAULTS.fanSpeed;
  acMode: PyValue = DEFAULTS.acMode;
  humidityLevel: PyValue = DEFAULTS.humidityLevel;
  headLightStatus: PyValue = DEFAULTS.headLightStatus;
  parkingBrakeStatus: PyValue = DEFAULTS.parkingBrakeStatus;
  brakePedalStatus: PyValue = DEFAULTS.brakePedalStatus;
  distanceToNextVehicle: PyValue = DEFAULTS.distanceToNextVehicle;
  cruiseStatus: PyValue = DEFAULTS.cruiseStatus;
  destination: PyValue = DEFAULTS.destination;
  frontLeftTirePressure: PyValue = DEFAULTS.frontTirePressure;
  frontRightTirePressure: PyValue = DEFAULTS.frontTirePressure;
  rearLeftTirePressure: PyValue = DEFAULTS.rearTirePressure;
  rearRightTirePressure: PyValue = DEFAULTS.rearTirePressure;
  long_context: boolean = false;

  // Private state (scenario keys `parkingBrakeForce`, `slopeAngle`, `brakePedalForce`).
  private _parkingBrakeForce: PyValue = DEFAULTS.parkingBrakeForce;
  private _slopeAngle: PyValue = DEFAULTS.slopeAngle;
  private _brakePedalForce: PyValue = DEFAULTS.brakePedalForce;
  private _random = new PyRandom(DEFAULTS.randomSeed);

  readonly _signatures = SIGNATURES;

  _loadScenario(scenario: PyDict, longContext: boolean): void {
    const get = (key: string, fallback: PyValue): PyValue => dictGetOr(scenario, key, fallback);
    this._random = new PyRandom(randomSeed(get('random_seed', DEFAULTS.randomSeed)));
    this.fuelLevel = get('fuelLevel', DEFAULTS.fuelLevel);
    this.batteryVoltage = get('batteryVoltage', DEFAULTS.batteryVoltage);
    this.engine_state = get('engineState', DEFAULTS.engineState);
    this.doorStatus = this._scenarioDict(scenario, 'doorStatus', () => defaultDoorStatus());
    // BFCL parity: vehicle_control.py::_load_scenario — the scenario's remainingUnlockedDoors is
    // ignored; it is recomputed as 4 minus the number of locked doors.
    const locked = [...this.doorStatus.values()].filter((status) => pyEquals(status, 'locked')).length;
    this.remainingUnlockedDoors = BigInt(4 - locked);
    this.acTemperature = get('acTemperature', DEFAULTS.acTemperature);
    this.fanSpeed = get('fanSpeed', DEFAULTS.fanSpeed);
    this.acMode = get('acMode', DEFAULTS.acMode);
    this.humidityLevel = get('humidityLevel', DEFAULTS.humidityLevel);
    this.headLightStatus = get('headLightStatus', DEFAULTS.headLightStatus);
    this.parkingBrakeStatus = get('parkingBrakeStatus', DEFAULTS.parkingBrakeStatus);
    this._parkingBrakeForce = get('parkingBrakeForce', DEFAULTS.parkingBrakeForce);
    this._slopeAngle = get('slopeAngle', DEFAULTS.slopeAngle);
    this.brakePedalStatus = get('brakePedalStatus', DEFAULTS.brakePedalStatus);
    this._brakePedalForce = get('brakePedalForce', DEFAULTS.brakePedalForce);
    this.distanceToNextVehicle = get('distanceToNextVehicle', DEFAULTS.distanceToNextVehicle);
    this.cruiseStatus = get('cruiseStatus', DEFAULTS.cruiseStatus);
    this.destination = get('destination', DEFAULTS.destination);
    this.frontLeftTirePressure = get('frontLeftTirePressure', DEFAULTS.frontTirePressure);
    this.frontRightTirePressure = get('frontRightTirePressure', DEFAULTS.frontTirePressure);
    this.rearLeftTirePressure = get('rearLeftTirePressure', DEFAULTS.rearTirePressure);
    this.rearRightTirePressure = get('rearRightTirePressure', DEFAULTS.rearTirePressure);
    this.long_context = longContext;
  }

  startEngine(ignitionMode: PyValue): PyValue {
    // BFCL parity: vehicle_control.py::startEngine — "STOP" stops the engine first, then runs the
    // same checks as "START" and, if they all pass, still answers "Invalid ignition mode.".
    if (pyEquals(ignitionMode, 'STOP')) this.engine_state = 'stopped';
    if (pyCompare('>', this.remainingUnlockedDoors, 0n)) {
      const unlocked = [...this.doorStatus].filter(([, status]) => pyEquals(status, 'unlocked')).map(([door]) => door);
      const message = 'All doors must be locked before starting the engine. Here are the unlocked doors: ';
      return pyDict({ error: message + joinStrings(unlocked) });
    }
    if (!pyEquals(this.brakePedalStatus, 'pressed')) {
      return pyDict({ error: 'Brake pedal needs to be pressed when starting the engine.' });
    }
    if (!pyEquals(this._brakePedalForce, FULL_BRAKE_FORCE)) {
      return pyDict({ error: 'Must press the brake fully before starting the engine.' });
    }
    if (pyCompare('<', this.fuelLevel, MIN_FUEL_LEVEL)) return pyDict({ error: 'Fuel tank is empty.' });
    if (!pyEquals(ignitionMode, 'START')) return pyDict({ error: 'Invalid ignition mode.' });
    this.engine_state = 'running';
    return pyDict({ engineState: this.engine_state, fuelLevel: this.fuelLevel, batteryVoltage: this.batteryVoltage });
  }

  fillFuelTank(fuelAmount: PyValue): PyValue {
    if (pyCompare('<', fuelAmount, 0n)) return pyDict({ error: 'Fuel amount cannot be negative.' });
    if (pyCompare('>', pyBinaryOp('+', this.fuelLevel, fuelAmount), MAX_FUEL_LEVEL)) {
      return pyDict({ error: 'Cannot fill gas above the tank capacity.' });
    }
    if (pyCompare('<', pyBinaryOp('+', this.fuelLevel, fuelAmount), MIN_FUEL_LEVEL)) {
      return pyDict({ error: 'Fuel tank is empty. Min fuel level is 0 gallons.' });
    }
    this.fuelLevel = augmented('+', this.fuelLevel, fuelAmount);
    return pyDict({ fuelLevel: this.fuelLevel });
  }

  lockDoors(unlock: PyValue, door: PyValue): PyValue {
    const to = pyTruthy(unlock) ? 'unlocked' : 'locked';
    const step = pyTruthy(unlock) ? 1n : -1n;
    for (const d of pyIterate(door)) {
      // An unknown door is a KeyError (the reference indexes the dict).
      if (pyEquals(getItem(this.doorStatus, d), to)) continue;
      setItem(this.doorStatus, d, to);
      this.remainingUnlockedDoors = augmented('+', this.remainingUnlockedDoors, step);
    }
    return pyDict({ lockStatus: to, remainingUnlockedDoors: this.remainingUnlockedDoors });
  }

  adjustClimateControl(temperature: PyValue, unit: PyValue, fanSpeed: PyValue, mode: PyValue): PyValue {
    if (!(pyCompare('<=', 0n, fanSpeed) && pyCompare('<=', fanSpeed, 100n))) {
      return pyDict({ error: 'Fan speed must be between 0 and 100.' });
    }
    this.acTemperature = temperature;
    if (pyEquals(unit, 'fahrenheit')) {
      // (temperature - 32) * 5 / 9, with Python's int/float typing.
      this.acTemperature = pyBinaryOp('/', pyBinaryOp('*', pyBinaryOp('-', temperature, 32n), 5n), 9n);
    }
    this.fanSpeed = fanSpeed;
    this.acMode = mode;
    // BFCL parity: vehicle_control.py::adjustClimateControl — reports the input temperature, not
    // the converted Celsius value it stores.
    return pyDict({ currentACTemperature: temperature, climateMode: mode, humidityLevel: this.humidityLevel });
  }

  get_outside_temperature_from_google(): PyValue {
    if (this.long_context) {
      const weather = this._longWeather();
      weather.set('outsideTemperature', this._random.uniform(-10.0, 40.0));
      return weather;
    }
    return pyDict({ outsideTemperature: this._random.uniform(-10.0, 40.0) });
  }

  get_outside_temperature_from_weather_com(): PyValue {
    return pyDict({ error: 404n });
  }

  setHeadlights(mode: PyValue): PyValue {
    if (!listContains(['on', 'off', 'auto'], mode)) return pyDict({ error: 'Invalid headlight mode.' });
    // BFCL parity: vehicle_control.py::setHeadlights — "auto" turns the lights off.
    this.headLightStatus = pyEquals(mode, 'on') ? 'on' : 'off';
    return pyDict({ headlightStatus: this.headLightStatus });
  }

  displayCarStatus(option: PyValue): PyValue {
    const status: PyDict = new Map();
    if (this.long_context) status.set('metadata', this._extension('CAR_STATUS_METADATA_EXTENSION'));
    const is = (name: string): boolean => pyEquals(option, name);
    if (is('fuel')) status.set('fuelLevel', this.fuelLevel);
    else if (is('battery')) status.set('batteryVoltage', this.batteryVoltage);
    else if (is('doors')) status.set('doorStatus', this.doorStatus);
    else if (is('climate')) {
      status.set('currentACTemperature', this.acTemperature);
      status.set('fanSpeed', this.fanSpeed);
      status.set('climateMode', this.acMode);
      status.set('humidityLevel', this.humidityLevel);
    } else if (is('headlights')) status.set('headlightStatus', this.headLightStatus);
    else if (is('parkingBrake')) {
      status.set('parkingBrakeStatus', this.parkingBrakeStatus);
      status.set('parkingBrakeForce', this._parkingBrakeForce);
      status.set('slopeAngle', this._slopeAngle);
    } else if (is('brakePedal')) {
      status.set('brakePedalStatus', this.brakePedalStatus);
      status.set('brakePedalForce', this._brakePedalForce);
    } else if (is('engine')) status.set('engineState', this.engine_state);
    else status.set('error', 'Invalid option');
    return status;
  }

  activateParkingBrake(mode: PyValue): PyValue {
    if (!listContains(['engage', 'release'], mode)) return pyDict({ error: 'Invalid mode' });
    const engage = pyEquals(mode, 'engage');
    this.parkingBrakeStatus = engage ? 'engaged' : 'released';
    this._parkingBrakeForce = engage ? 500.0 : 0.0;
    // BFCL parity: vehicle_control.py::activateParkingBrake — releasing also reports a 10° slope.
    this._slopeAngle = 10.0;
    const result: PyDict = new Map();
    if (this.long_context) result.set('parkingBrakeInstruction', this._extension('PARKING_BRAKE_INSTRUCTION'));
    result.set('parkingBrakeStatus', this.parkingBrakeStatus);
    result.set('_parkingBrakeForce', this._parkingBrakeForce);
    result.set('_slopeAngle', this._slopeAngle);
    return result;
  }

  pressBrakePedal(pedalPosition: PyValue): PyValue {
    if (!(pyCompare('<=', 0n, pedalPosition) && pyCompare('<=', pedalPosition, 1n))) {
      return pyDict({ error: 'Pedal position must be between 0 and 1.' });
    }
    if (pyEquals(pedalPosition, 0n)) return this.releaseBrakePedal();
    // The stored force keeps Python's type (position 1 gives the int 1000); the reply is a float.
    const force = pyBinaryOp('*', pedalPosition, MAX_BRAKE_FORCE);
    this.brakePedalStatus = 'pressed';
    this._brakePedalForce = force;
    return pyDict({ brakePedalStatus: 'pressed', brakePedalForce: pyFloat(force) });
  }

  releaseBrakePedal(): PyValue {
    this.brakePedalStatus = 'released';
    this._brakePedalForce = 0.0;
    return pyDict({ brakePedalStatus: 'released', brakePedalForce: 0.0 });
  }

  setCruiseControl(speed: PyValue, activate: PyValue, distanceToNextVehicle: PyValue): PyValue {
    const distance = pyFloat(distanceToNextVehicle);
    const currentSpeed = pyFloat(speed);
    if (pyEquals(this.engine_state, 'stopped')) {
      return pyDict({ error: 'Start the engine before activating the cruise control.' });
    }
    // BFCL parity: vehicle_control.py::setCruiseControl — the distance is stored before the
    // speed is validated, so an invalid speed still changes distanceToNextVehicle.
    this.distanceToNextVehicle = distance;
    if (pyTruthy(activate)) {
      if (currentSpeed < 0 || currentSpeed > 120 || currentSpeed % 5 !== 0) return pyDict({ error: 'Invalid speed' });
      this.cruiseStatus = 'active';
    } else {
      this.cruiseStatus = 'inactive';
    }
    return pyDict({ cruiseStatus: this.cruiseStatus, currentSpeed, distanceToNextVehicle: distance });
  }

  get_current_speed(): PyValue {
    return pyDict({ currentSpeed: this._random.uniform(0.0, 120.0) });
  }

  display_log(messages: PyValue): PyValue {
    return pyDict({ log: messages });
  }

  estimate_drive_feasibility_by_mileage(distance: PyValue): PyValue {
    const range = pyBinaryOp('*', this.fuelLevel, MILE_PER_GALLON);
    return pyDict({ canDrive: !pyCompare('<', range, distance) });
  }

  liter_to_gallon(liter: PyValue): PyValue {
    return pyDict({ gallon: pyBinaryOp('*', liter, 0.264172) });
  }

  gallon_to_liter(gallon: PyValue): PyValue {
    return pyDict({ liter: pyBinaryOp('*', gallon, 3.78541) });
  }

  estimate_distance(cityA: PyValue, cityB: PyValue): PyValue {
    const known = DISTANCES.find(
      ([a, b]) => (pyEquals(cityA, a) && pyEquals(cityB, b)) || (pyEquals(cityA, b) && pyEquals(cityB, a)),
    );
    const result =
      known === undefined ? pyDict({ error: 'distance not found in database.' }) : pyDict({ distance: known[2] });
    if (this.long_context) result.set('intermediaryCities', this._extension('INTERMEDIARY_CITIES'));
    return result;
  }

  get_zipcode_based_on_city(city: PyValue): PyValue {
    const zipcode = typeof city === 'string' ? ZIPCODE_BY_CITY.get(city) : undefined;
    return pyDict({ zipcode: zipcode ?? '00000' });
  }

  set_navigation(destination: PyValue): PyValue {
    // The destination is stored even when building the reply fails (a non-str destination).
    this.destination = destination;
    return pyDict({ status: pyBinaryOp('+', 'Navigating to ', destination) });
  }

  check_tire_pressure(): PyValue {
    const total = [this.frontRightTirePressure, this.rearLeftTirePressure, this.rearRightTirePressure].reduce(
      (sum: PyValue, pressure) => pyBinaryOp('+', sum, pressure),
      this.frontLeftTirePressure,
    );
    const mean = pyBinaryOp('/', total, 4n);
    const healthy = pyCompare('<=', 30n, mean) && pyCompare('<=', mean, 35n);
    return pyDict({
      frontLeftTirePressure: this.frontLeftTirePressure,
      frontRightTirePressure: this.frontRightTirePressure,
      rearLeftTirePressure: this.rearLeftTirePressure,
      rearRightTirePressure: this.rearRightTirePressure,
      healthy_tire_pressure: healthy,
      car_info: this.long_context ? this._extension('CAR_STATUS_METADATA_EXTENSION') : new Map(),
    });
  }

  find_nearest_tire_shop(): PyValue {
    return pyDict({ shopLocation: NEAREST_TIRE_SHOP });
  }

  // -------------------------------------------------------------------------------------------

  /** A long-context filler constant, shared as-is (the reference returns the module objects). */
  private _extension(name: string): PyValue {
    const value = this._filler.get(name);
    if (value === undefined) throw new Error(`long_context.json has no ${name}`);
    return value;
  }

  /** This context's LONG_WEATHER_EXTENSION dict (see `weatherByContext`). */
  private _longWeather(): PyDict {
    const data = this._filler;
    let weather = weatherByContext.get(data);
    if (weather === undefined) {
      weather = new Map(expectDict(this._extension('LONG_WEATHER_EXTENSION'), 'long-context LONG_WEATHER_EXTENSION'));
      weatherByContext.set(data, weather);
    }
    return weather;
  }
}
